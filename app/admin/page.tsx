import { notFound } from "next/navigation";
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import { AdminRegradeForm } from "@/components/admin/AdminRegradeForm";
import { AdminRoleButton } from "@/components/admin/AdminRoleButton";
import { getViewer } from "@/lib/auth/viewer";
import { NotFoundError } from "@/core/errors";
import { siteAdminView } from "@/lib/accounts/users";
import { parseAuditQuery, userAnchor, type AuditQuery } from "@/lib/accounts/audit-query";
import { AuditLog } from "@/components/admin/AuditLog";
import { changeSiteRoleAction, regradeAction, releaseVersionAction } from "./actions";
import { AdminReleaseForm } from "@/components/admin/AdminReleaseForm";
import { versionsNewestFirst } from "@/lib/leaderboard/data";

export const metadata = { title: "Admin · ChainSWE" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

async function load(query: AuditQuery) {
  try {
    return await siteAdminView(await getViewer(), query);
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
      {username ? <AdminRoleButton username={username} role={role} has={has} change={changeSiteRoleAction} /> : <span className="muted">(no username: not changeable here)</span>}
    </>
  );
}

export default async function AdminPage({ searchParams }: Props) {
  const { query, problems } = parseAuditQuery(await searchParams);
  const { users, audit } = await load(query);
  const versions = await versionsNewestFirst();
  return (
    <main>
      <h1>Site administration</h1>
      <h2>Users</h2>
      <p className="muted">
        Reviewers approve or reject publication and re-run evaluations; site admins also manage these roles and every team. From the command line:{" "}
        <code>chainswe admin grant|revoke &lt;username&gt; reviewer|site_admin</code>.
      </p>
      <DataTable
        columns={[
          { header: "Username", cell: (u) => u.username ?? <span className="muted">(GitHub account)</span> },
          { header: "Name", cell: (u) => u.name },
          { header: "Created", cell: (u) => <UtcTime date={u.createdAt} /> },
          { header: "Reviewer", cell: (u) => <Role username={u.username} role="reviewer" has={u.isReviewer} /> },
          { header: "Site admin", cell: (u) => <Role username={u.username} role="site_admin" has={u.isSiteAdmin} /> },
        ]}
        rows={users}
        rowKey={(u) => u.id}
        rowAttributes={(u) => ({ id: userAnchor(u.id).slice(1) })}
      />

      <h2>Re-grade</h2>
      <p className="muted">
        Re-reads every stored test log with the current grader and recomputes scores where a verdict changed; the submission page then shows what
        changed. Nothing is re-run. From the command line, for evaluation directories: <code>chainswe regrade DIR…</code>.
      </p>
      <AdminRegradeForm regrade={regradeAction} />

      <h2>Release a version</h2>
      <p className="muted">
        A new dataset version from a parent: its chains, plus the accepted proposals when asked, minus those retired, every change with why
        (accepted chains are noted with their proposal and review). From the command line: <code>chainswe dataset release</code>.
      </p>
      <AdminReleaseForm release={releaseVersionAction} versions={versions} />

      <h2 id="audit-heading">Audit log</h2>
      <AuditLog audit={audit} query={query} problems={problems} />
    </main>
  );
}
