import Link from "next/link";
import { redirect } from "next/navigation";
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import { TeamCreateForm } from "@/components/teams/TeamCreateForm";
import { InvitationControls } from "@/components/teams/TeamMemberForms";
import { getViewer } from "@/lib/auth/viewer";
import { receivedInvitations } from "@/lib/teams/invitations";
import { listTeams } from "@/lib/teams/data";
import { createTeamAction, invitationAction } from "./actions";

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
          <DataTable
            columns={[
              { header: "Team", cell: (i) => <Link href={`/teams/${i.team.slug}`}>{i.team.name}</Link> },
              { header: "Role offered", cell: (i) => i.role },
              { header: "Invited by", cell: (i) => i.invitedBy },
              { header: "Sent", cell: (i) => <UtcTime date={i.createdAt} /> },
              {
                header: "Answer",
                hiddenHeader: true,
                cell: (i) => <InvitationControls action={invitationAction.bind(null, i.id)} side="invitee" what={`the invitation to ${i.team.name}`} />,
              },
            ]}
            rows={invitations}
            rowKey={(i) => i.id}
          />
        </>
      )}
      <DataTable
        columns={[
          { header: "Team", cell: (t) => <Link href={`/teams/${t.slug}`}>{t.name}</Link> },
          { header: "Your role", cell: (t) => t.role },
          { header: "Members", numeric: true, cell: (t) => t.members },
          { header: "Systems", numeric: true, cell: (t) => t.systems },
        ]}
        rows={teams}
        rowKey={(t) => t.slug}
        empty={<>You are in no team yet: create one below, or ask a team&apos;s admin to invite you by your username ({viewer.username ?? "none"}).</>}
      />
      <h2>Create a team</h2>
      <TeamCreateForm create={createTeamAction} />
    </main>
  );
}
