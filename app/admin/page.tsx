import { notFound } from "next/navigation";
import { AccountTime } from "@/components/AccountTime";
import { AdminRegradeForm } from "@/components/AdminRegradeForm";
import { AdminRoleButton } from "@/components/AdminRoleButton";
import { getViewer } from "@/lib/auth/viewer";
import { NotFoundError } from "@/lib/errors";
import { siteAdminView } from "@/lib/accounts/users";

export const metadata = { title: "Admin · ChainSWE" };

async function load() {
  try {
    return await siteAdminView(await getViewer());
  } catch (e) {
    // anyone but a site admin: the page does not exist
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
}

function Role({ username, role, has }: { username: string | null; role: "reviewer" | "site_admin"; has: boolean }) {
  return (
    <>
      {has ? "yes" : "no"}{" "}
      {username ? <AdminRoleButton username={username} role={role} has={has} /> : <span className="muted">(no username: not changeable here)</span>}
    </>
  );
}

export default async function AdminPage() {
  const { users, audit } = await load();
  return (
    <main>
      <h1>Site administration</h1>
      <h2>Users</h2>
      <p className="muted">
        Reviewers approve or reject publication and re-run evaluations; site admins also manage these roles and every team. From the command line:{" "}
        <code>chainswe admin grant|revoke &lt;username&gt; reviewer|site_admin</code>.
      </p>
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Reviewer</th>
              <th scope="col">Site admin</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <th scope="row">{u.username ?? <span className="muted">(GitHub account)</span>}</th>
                <td>{u.name}</td>
                <td>
                  <AccountTime date={u.createdAt} />
                </td>
                <td>
                  <Role username={u.username} role="reviewer" has={u.isReviewer} />
                </td>
                <td>
                  <Role username={u.username} role="site_admin" has={u.isSiteAdmin} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Re-grade</h2>
      <p className="muted">
        Re-reads every stored test log with the current grader and recomputes scores where a verdict changed; the submission page then shows what
        changed. Nothing is re-run. From the command line, for evaluation directories: <code>chainswe regrade DIR…</code>.
      </p>
      <AdminRegradeForm />

      <h2>Audit log</h2>
      <p className="muted">{audit.length === 100 ? "The 100 most recent reviewer and site-admin actions" : "Reviewer and site-admin actions"}, newest first.</p>
      {audit.length === 0 ? (
        <p className="muted">Nothing logged yet.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {audit.map((a) => (
                <tr key={a.id}>
                  <td>
                    <AccountTime date={a.createdAt} />
                  </td>
                  <td>{a.actor ?? <span className="muted">command line</span>}</td>
                  <td>{a.action.replaceAll("_", " ")}</td>
                  <td>
                    <span className="muted">{a.targetType}</span> {a.target}
                  </td>
                  <td>{a.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
