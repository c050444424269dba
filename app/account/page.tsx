import Link from "next/link";
import { redirect } from "next/navigation";
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import { AccountTokenForm } from "@/components/accounts/AccountTokenForm";
import { PasswordChangeForm } from "@/components/accounts/PasswordChangeForm";
import { getViewer } from "@/lib/auth/viewer";
import { listApiTokens } from "@/lib/accounts/api-tokens";
import { changePasswordAction, createTokenAction, revokeTokenAction } from "./actions";

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
      <DataTable
        columns={[
          { header: "Team", cell: (t) => <Link href={`/teams/${t.slug}`}>{t.name}</Link> },
          { header: "Your role", cell: (t) => t.role },
        ]}
        rows={viewer.teams}
        rowKey={(t) => t.id}
        empty={
          <>
            You are in no team yet. <Link href="/teams">Create one</Link>, or ask a team admin to invite you: invitations wait on the Teams page.
          </>
        }
      />

      {viewer.username && (
        <>
          <h2>Password</h2>
          <p className="muted">Changing it signs out your other sessions (every other browser or device). API tokens are kept: revoke any you do not recognise below.</p>
          <PasswordChangeForm change={changePasswordAction} />
        </>
      )}

      <h2>API tokens</h2>
      <p className="muted">
        For the HTTP API and <code>chainswe submit</code>: send <code>Authorization: Bearer &lt;token&gt;</code>. A token acts as you, for every team you
        are in, with the scopes it was given.
      </p>
      <DataTable
        columns={[
          { header: "Name", cell: (t) => t.name },
          { header: "Scopes", cell: (t) => t.scopes.join(", ") },
          { header: "Created", cell: (t) => <UtcTime date={t.createdAt} /> },
          { header: "Last used", cell: (t) => <UtcTime date={t.lastUsedAt} /> },
          {
            header: "Revoke",
            hiddenHeader: true,
            cell: (t) => (
              <form action={revokeTokenAction}>
                <input type="hidden" name="id" value={t.id} />
                <button type="submit" className="secondary" aria-label={`Revoke token ${t.name}`}>
                  Revoke
                </button>
              </form>
            ),
          },
        ]}
        rows={tokens}
        rowKey={(t) => t.id}
        empty="No tokens yet."
      />
      <h3>New token</h3>
      <AccountTokenForm create={createTokenAction} />
    </main>
  );
}
