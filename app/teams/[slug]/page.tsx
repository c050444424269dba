import { notFound } from "next/navigation";
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import { InvitationControls, TeamInviteForm, TeamMemberControls } from "@/components/teams/TeamMemberForms";
import { TeamSystemForm } from "@/components/teams/TeamSystemForm";
import { TeamSystemsTable } from "@/components/teams/TeamSystemsTable";
import { DeliveryLog } from "@/components/teams/DeliveryLog";
import { TeamWebhookButtons, TeamWebhookForm } from "@/components/teams/TeamWebhookForms";
import type { Viewer } from "@/lib/accounts/users";
import { getViewer } from "@/lib/auth/viewer";
import { NotFoundError } from "@/core/errors";
import { webhookSettings } from "@/lib/notifications/webhooks";
import { CONTEXT_CONFIG_SUGGESTIONS, linksText } from "@/lib/teams/systems";
import { getTeam, type TeamView } from "@/lib/teams/data";
import { createSystemAction, invitationAction, inviteMemberAction, memberAction, saveWebhookAction, updateSystemAction, webhookAction } from "../actions";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<{ edit?: string | string[] }> };

async function load(viewer: Viewer | null, slug: string): Promise<TeamView> {
  try {
    return await getTeam(viewer, slug);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
}

export async function generateMetadata({ params }: Props) {
  return { title: `${(await params).slug} · Teams · ChainSWE` };
}

export default async function TeamPage({ params, searchParams }: Props) {
  const [{ slug }, { edit }, viewer] = await Promise.all([params, searchParams, getViewer()]);
  const team = await load(viewer, slug);
  // null unless the viewer is one of the team's admins
  const webhook = await webhookSettings(viewer, team.id);
  // ?edit=<system id> opens that system's edit form in place of the new-system form (state in the URL)
  const editing = team.canEditSystems ? team.systems.find((s) => s.id === edit) : undefined;
  return (
    <main>
      <h1>{team.name}</h1>
      <p className="muted">
        Team since <UtcTime date={team.createdAt} />
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
        <DataTable
          columns={[
            {
              header: "Username",
              cell: (m) => (
                <>
                  {m.username ?? <span className="muted">(GitHub account)</span>}
                  {m.isViewer && <span className="muted"> (you)</span>}
                </>
              ),
            },
            { header: "Name", cell: (m) => m.name },
            { header: "Role", cell: (m) => m.role },
            { header: "Joined", cell: (m) => <UtcTime date={m.joinedAt} /> },
            {
              header: "Actions",
              hiddenHeader: true,
              cell: (m) => (
                <TeamMemberControls
                  action={memberAction.bind(null, team.slug, m.userId)}
                  who={m.username ?? m.name ?? "member"}
                  role={m.role}
                  manage={team.canManageMembers}
                  self={m.isViewer}
                />
              ),
            },
          ]}
          rows={team.members}
          rowKey={(m) => m.userId}
        />
      )}
      {team.invitations && team.invitations.length > 0 && (
        <>
          <h3>Open invitations</h3>
          <DataTable
            columns={[
              { header: "Username", cell: (i) => i.username },
              { header: "Role offered", cell: (i) => i.role },
              { header: "Invited by", cell: (i) => i.invitedBy },
              { header: "Sent", cell: (i) => <UtcTime date={i.createdAt} /> },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (i) => <InvitationControls action={invitationAction.bind(null, i.id)} side="team" what={`the invitation of ${i.username ?? "this user"}`} />,
              },
            ]}
            rows={team.invitations}
            rowKey={(i) => i.id}
          />
        </>
      )}
      {team.canManageMembers && (
        <>
          <h3>Invite a member</h3>
          <TeamInviteForm action={inviteMemberAction.bind(null, team.slug)} />
        </>
      )}

      {webhook && (
        <>
          <h2>Webhook</h2>
          <p className="muted">
            Seen by the team&apos;s admins only. Each notification (an evaluation completed or failed, publication approved or rejected) is POSTed as
            signed JSON; a failed delivery is tried again after 10 s, 1 min, 5 min and 30 min.
          </p>
          <TeamWebhookForm action={saveWebhookAction.bind(null, team.slug)} webhook={webhook.webhook} />
          {webhook.webhook && <TeamWebhookButtons action={webhookAction.bind(null, team.slug)} />}
          <h3>Deliveries</h3>
          <DeliveryLog deliveries={webhook.deliveries} />
        </>
      )}
    </main>
  );
}
