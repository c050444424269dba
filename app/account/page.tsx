import Link from "next/link";
import { redirect } from "next/navigation";
import { AccountTime } from "@/components/AccountTime";
import { AccountTokenForm } from "@/components/AccountTokenForm";
import { getViewer } from "@/lib/auth/viewer";
import { listApiTokens } from "@/lib/accounts/api-tokens";
import { revokeTokenAction } from "./actions";

export const metadata = { title: "Account · ChainSWE" };

export default async function AccountPage() {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/account");
  const tokens = await listApiTokens(viewer.id);
  const roles = [viewer.isSiteAdmin && "site admin", viewer.isReviewer && "reviewer"].filter(Boolean).join(", ");
  return (
    <main>
      <h1>{viewer.username ?? viewer.name ?? "Your account"}</h1>
      {viewer.name && viewer.name !== viewer.username && <p className="muted">{viewer.name}</p>}
      {roles && <p>Site roles: {roles}</p>}

      <h2>Teams</h2>
      {viewer.teams.length === 0 ? (
        <p className="muted">
          You are in no team yet. <Link href="/teams">Create one</Link>, or ask a team admin to invite you: invitations wait on the Teams page.
        </p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col">Your role</th>
              </tr>
            </thead>
            <tbody>
              {viewer.teams.map((t) => (
                <tr key={t.id}>
                  <th scope="row">
                    <Link href={`/teams/${t.slug}`}>{t.name}</Link>
                  </th>
                  <td>{t.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2>API tokens</h2>
      <p className="muted">
        For the HTTP API and <code>chainswe submit</code>: send <code>Authorization: Bearer &lt;token&gt;</code>. A token acts as you, for every team you
        are in, with the scopes it was given.
      </p>
      {tokens.length === 0 ? (
        <p className="muted">No tokens yet.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Revoke</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <th scope="row">{t.name}</th>
                  <td>{t.scopes.join(", ")}</td>
                  <td>
                    <AccountTime date={t.createdAt} />
                  </td>
                  <td>
                    <AccountTime date={t.lastUsedAt} />
                  </td>
                  <td>
                    <form action={revokeTokenAction}>
                      <input type="hidden" name="id" value={t.id} />
                      <button type="submit" className="secondary" aria-label={`Revoke token ${t.name}`}>
                        Revoke
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>New token</h3>
      <AccountTokenForm />
    </main>
  );
}
