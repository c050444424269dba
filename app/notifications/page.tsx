import Link from "next/link";
import { redirect } from "next/navigation";
import { MarkAllReadButton } from "@/components/notifications/MarkAllReadButton";
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import { getViewer } from "@/lib/auth/viewer";
import { listNotifications } from "@/lib/notifications/data";
import { notificationHeadline } from "@/lib/notifications/payload";
import { submissionPageUrl } from "@/lib/submissions/urls";
import { markAllReadAction } from "./actions";

export const metadata = { title: "Notifications · ChainSWE" };

export default async function NotificationsPage() {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/notifications");
  const rows = await listNotifications(viewer);
  const unread = rows.filter((r) => r.unread).length;
  return (
    <main>
      <h1>Notifications</h1>
      <p className="muted">
        Your teams&apos; submissions: evaluations that completed or failed, publication approved or rejected. Team admins can also have them POSTed to a
        webhook (on the team&apos;s page).
      </p>
      {unread > 0 && <MarkAllReadButton action={markAllReadAction} unread={unread} />}
      <DataTable
        testId="notifications"
        caption="Notifications, newest first"
        captionHidden
        columns={[
          { header: "What", cell: (n) => <Link href={submissionPageUrl(n.submission.id)}>{notificationHeadline(n.event, n.submission.system)}</Link> },
          { header: "Mode", cell: (n) => n.submission.mode },
          { header: "Run", cell: (n) => `run ${n.submission.run} · dataset ${n.submission.datasetVersion}` },
          { header: "Team", cell: (n) => <Link href={`/teams/${n.team.slug}`}>{n.team.name}</Link> },
          { header: "Reason", cell: (n) => n.reason ?? "" },
          { header: "When", cell: (n) => <UtcTime date={n.createdAt} /> },
          { header: "Read", cell: (n) => (n.unread ? <strong>unread</strong> : <span className="muted">read</span>) },
        ]}
        rows={rows}
        rowKey={(n) => n.id}
        rowAttributes={(n) => ({ "data-unread": String(n.unread) })}
        empty="No notifications yet: they come when your teams' evaluations end and when reviewers decide on publication."
      />
    </main>
  );
}
