/**
 * The notifications page and the header's unread count: the notifications of
 * the viewer's teams, newest first. "Read" is one time per user
 * (User.notificationsReadAt, set by "Mark all read"): everything made before it is read.
 */
import type { Viewer } from "@/lib/accounts/users";
import { db } from "@/db/client";
import { UnauthorizedError } from "@/core/errors";
import { notificationEventSchema, type NotificationEvent } from "@/core/schemas/columns";
import { modeSchema, type Mode } from "@/core/schemas/prediction";

export type NotificationRow = {
  id: string;
  event: NotificationEvent;
  reason: string | null;
  createdAt: Date;
  unread: boolean;
  team: { slug: string; name: string };
  /** which run of its entry (1 for a single run) and of which dataset version the notification is about */
  submission: { id: string; system: string; mode: Mode; run: number; datasetVersion: string };
};

export const isUnread = (createdAt: Date, readAt: Date | null): boolean => !readAt || createdAt > readAt;

const teamIds = (viewer: Viewer) => viewer.teams.map((t) => t.id);

async function readAt(viewer: Viewer): Promise<Date | null> {
  const user = await db.user.findUnique({ where: { id: viewer.id }, select: { notificationsReadAt: true } });
  return user?.notificationsReadAt ?? null;
}

export async function listNotifications(viewer: Viewer | null, limit = 100): Promise<NotificationRow[]> {
  if (!viewer) throw new UnauthorizedError("sign in to see your teams' notifications");
  const [rows, read] = await Promise.all([
    db.notification.findMany({
      where: { teamId: { in: teamIds(viewer) } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: {
        id: true,
        event: true,
        reason: true,
        createdAt: true,
        team: { select: { slug: true, name: true } },
        submission: { select: { id: true, mode: true, run: true, datasetVersion: { select: { version: true } }, system: { select: { name: true } } } },
      },
    }),
    readAt(viewer),
  ]);
  return rows.map((r) => ({
    id: r.id,
    event: notificationEventSchema.parse(r.event),
    reason: r.reason,
    createdAt: r.createdAt,
    unread: isUnread(r.createdAt, read),
    team: r.team,
    submission: {
      id: r.submission.id,
      system: r.submission.system.name,
      mode: modeSchema.parse(r.submission.mode),
      run: r.submission.run,
      datasetVersion: r.submission.datasetVersion.version,
    },
  }));
}

/** For the site header: 0 for a visitor or a viewer with no teams. */
export async function unreadNotificationCount(viewer: Viewer | null): Promise<number> {
  if (!viewer || viewer.teams.length === 0) return 0;
  const read = await readAt(viewer);
  return db.notification.count({ where: { teamId: { in: teamIds(viewer) }, ...(read ? { createdAt: { gt: read } } : {}) } });
}

export async function markAllNotificationsRead(viewer: Viewer | null, now: Date = new Date()): Promise<void> {
  if (!viewer) throw new UnauthorizedError("sign in to see your teams' notifications");
  await db.user.update({ where: { id: viewer.id }, data: { notificationsReadAt: now } });
}
