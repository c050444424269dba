import Link from "next/link";
import { redirect } from "next/navigation";
import { AccountTime } from "@/components/AccountTime";
import { TeamCreateForm } from "@/components/TeamCreateForm";
import { InvitationControls } from "@/components/TeamMemberForms";
import { getViewer } from "@/lib/auth/viewer";
import { receivedInvitations } from "@/lib/teams/invitations";
import { listTeams } from "@/lib/teams/data";
import { invitationAction } from "./actions";

export const metadata = { title: "Teams · ChainSWE" };

export default async function TeamsPage() {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/teams");
  const [teams, invitations] = await Promise.all([listTeams(viewer), receivedInvitations(viewer)]);
  return (
    <main>
      <h1>Your teams</h1>
      {invitations.length > 0 && (
        <>
          <h2>Invitations</h2>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Team</th>
                  <th scope="col">Role offered</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Sent</th>
                  <th scope="col">
                    <span className="visually-hidden">Answer</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((i) => (
                  <tr key={i.id}>
                    <th scope="row">
                      <Link href={`/teams/${i.team.slug}`}>{i.team.name}</Link>
                    </th>
                    <td>{i.role}</td>
                    <td>{i.invitedBy}</td>
                    <td>
                      <AccountTime date={i.createdAt} />
                    </td>
                    <td>
                      <InvitationControls action={invitationAction.bind(null, i.id)} side="invitee" what={`the invitation to ${i.team.name}`} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {teams.length === 0 ? (
        <p className="muted">You are in no team yet: create one below, or ask a team&apos;s admin to invite you by your username ({viewer.username ?? "none"}).</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col">Your role</th>
                <th scope="col" className="num">
                  Members
                </th>
                <th scope="col" className="num">
                  Systems
                </th>
              </tr>
            </thead>
            <tbody>
              {teams.map((t) => (
                <tr key={t.slug}>
                  <th scope="row">
                    <Link href={`/teams/${t.slug}`}>{t.name}</Link>
                  </th>
                  <td>{t.role}</td>
                  <td className="num">{t.members}</td>
                  <td className="num">{t.systems}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Create a team</h2>
      <TeamCreateForm />
    </main>
  );
}
