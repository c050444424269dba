import { notFound } from "next/navigation";
import { AccountTime } from "@/components/AccountTime";
import { InvitationControls, TeamInviteForm, TeamMemberControls } from "@/components/TeamMemberForms";
import { TeamSystemForm } from "@/components/TeamSystemForm";
import { TeamSystemsTable } from "@/components/TeamSystemsTable";
import { getViewer } from "@/lib/auth/viewer";
import { NotFoundError } from "@/lib/errors";
import { CONTEXT_CONFIG_SUGGESTIONS, linksText } from "@/lib/teams/systems";
import { getTeam, type TeamView } from "@/lib/teams/data";
import { createSystemAction, invitationAction, inviteMemberAction, memberAction, updateSystemAction } from "../actions";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ edit?: string | string[] }> };

async function load(slug: string): Promise<TeamView> {
  try {
    return await getTeam(await getViewer(), slug);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
}

export async function generateMetadata({ params }: Props) {
  return { title: `${(await params).slug} · Teams · ChainSWE` };
}

export default async function TeamPage({ params, searchParams }: Props) {
  const [{ slug }, { edit }] = await Promise.all([params, searchParams]);
  const team = await load(slug);
  // ?edit=<system id> opens that system's edit form in place of the new-system form (state in the URL)
  const editing = team.canEditSystems ? team.systems.find((s) => s.id === edit) : undefined;
  return (
    <main>
      <h1>{team.name}</h1>
      <p className="muted">
        Team since <AccountTime date={team.createdAt} />
        {team.role && ` · you are ${team.role === "admin" ? "an admin" : "a member"}`}
      </p>

      <h2>Systems</h2>
      <TeamSystemsTable slug={team.slug} systems={team.systems} editable={team.canEditSystems} />
      {editing ? (
        <>
          <h3>Edit system {editing.name}</h3>
          <TeamSystemForm
            key={editing.id}
            action={updateSystemAction.bind(null, team.slug, editing.id)}
            system={editing}
            linksText={linksText(editing.links)}
            cancelHref={`/teams/${team.slug}`}
            suggestions={CONTEXT_CONFIG_SUGGESTIONS}
          />
        </>
      ) : (
        team.canEditSystems && (
          <>
            <h3>New system</h3>
            <p className="muted">A system is one model + scaffold + context configuration; each submission is the output of one system.</p>
            <TeamSystemForm action={createSystemAction.bind(null, team.slug)} suggestions={CONTEXT_CONFIG_SUGGESTIONS} />
          </>
        )
      )}

      <h2>Members</h2>
      {team.members === null ? (
        <p className="muted">The member list is shown to the team&apos;s members.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {team.members.map((m) => (
                <tr key={m.userId}>
                  <th scope="row">
                    {m.username ?? <span className="muted">(GitHub account)</span>}
                    {m.isViewer && <span className="muted"> (you)</span>}
                  </th>
                  <td>{m.name}</td>
                  <td>{m.role}</td>
                  <td>
                    <AccountTime date={m.joinedAt} />
                  </td>
                  <td>
                    <TeamMemberControls
                      action={memberAction.bind(null, team.slug, m.userId)}
                      who={m.username ?? m.name ?? "member"}
                      role={m.role}
                      manage={team.canManageMembers}
                      self={m.isViewer}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {team.invitations && team.invitations.length > 0 && (
        <>
          <h3>Open invitations</h3>
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Username</th>
                  <th scope="col">Role offered</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Sent</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {team.invitations.map((i) => (
                  <tr key={i.id}>
                    <th scope="row">{i.username}</th>
                    <td>{i.role}</td>
                    <td>{i.invitedBy}</td>
                    <td>
                      <AccountTime date={i.createdAt} />
                    </td>
                    <td>
                      <InvitationControls action={invitationAction.bind(null, i.id)} side="team" what={`the invitation of ${i.username ?? "this user"}`} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {team.canManageMembers && (
        <>
          <h3>Invite a member</h3>
          <TeamInviteForm action={inviteMemberAction.bind(null, team.slug)} />
        </>
      )}
    </main>
  );
}
