/**
 * The audit log as the admin page reads it: filtered by action, actor and
 * subject, paged by number (lib/accounts/audit-query.ts, the URL's view), newest
 * first, each subject named and linked to its page when it has one.
 */
import { db } from "@/db/client";
import type { AuditAction } from "@/core/schemas/columns";
import { MODE_LABELS } from "@/core/scoring/format";
import { modeSchema } from "@/core/schemas/prediction";
import type { Prisma } from "@/db/generated/prisma/client";
import { AUDIT_PAGE_SIZE, userAnchor, type AuditQuery } from "@/lib/accounts/audit-query";
import { submissionPageUrl } from "@/lib/submissions/urls";
import { datasetHref } from "@/lib/dataset/url";

/** What an entry acted on: named, and linked to its page when it has one the site admin may read. */
export type AuditSubject = { kind: string; label: string; href: string | null; id: string };
export type AuditRow = { id: string; createdAt: Date; actor: { username: string | null; name: string | null; userId: string } | null; action: AuditAction | string; subject: AuditSubject; reason: string | null };
export type AuditPage = { rows: AuditRow[]; page: number; pages: number; total: number };

async function whereOf(q: AuditQuery): Promise<Prisma.AuditLogWhereInput> {
  const and: Prisma.AuditLogWhereInput[] = [];
  if (q.action) and.push({ action: q.action });
  if (q.actor) and.push({ actor: { username: q.actor } });
  if (q.subject) {
    const user = await db.user.findUnique({ where: { username: q.subject }, select: { id: true } });
    and.push({ OR: [{ targetId: q.subject }, ...(user ? [{ targetType: "user", targetId: user.id }] : [])] });
  }
  return { AND: and };
}

/** Names and links for these entries' subjects: submissions by system and mode, proposed chains by chain, users by username. */
async function subjects(entries: { targetType: string; targetId: string }[]): Promise<(e: { targetType: string; targetId: string }) => AuditSubject> {
  const ids = (type: string) => [...new Set(entries.filter((e) => e.targetType === type).map((e) => e.targetId))];
  const [subs, chains, users] = await Promise.all([
    db.submission.findMany({ where: { id: { in: ids("submission") } }, select: { id: true, mode: true, run: true, system: { select: { name: true } } } }),
    db.proposedChain.findMany({ where: { id: { in: ids("proposed_chain") } }, select: { id: true, continuousId: true, proposalId: true } }),
    db.user.findMany({ where: { id: { in: ids("user") } }, select: { id: true, username: true, name: true } }),
  ]);
  const sub = new Map(subs.map((s) => [s.id, s]));
  const chain = new Map(chains.map((c) => [c.id, c]));
  const user = new Map(users.map((u) => [u.id, u]));
  return ({ targetType: kind, targetId: id }) => {
    const s = kind === "submission" ? sub.get(id) : undefined;
    if (s) return { kind, id, label: `${s.system.name} · ${MODE_LABELS[modeSchema.parse(s.mode)]} · run ${s.run}`, href: submissionPageUrl(s.id) };
    const c = kind === "proposed_chain" ? chain.get(id) : undefined;
    if (c) return { kind, id, label: c.continuousId, href: `/dataset/proposals/${encodeURIComponent(c.proposalId)}` };
    if (kind === "dataset_version") return { kind, id, label: `dataset ${id}`, href: datasetHref(id) };
    const u = kind === "user" ? user.get(id) : undefined;
    if (u) return { kind, id, label: u.username ?? u.name ?? id, href: userAnchor(u.id) };
    // gone (a deleted submission), or not one thing ("all" of a re-grade of every submission)
    return { kind, id, label: id === "all" ? "all submissions" : id, href: null };
  };
}

/** One page of the audit log under the filter; a page past the last is the last. Site admins only (the caller checks). */
export async function auditLogPage(q: AuditQuery): Promise<AuditPage> {
  const where = await whereOf(q);
  const total = await db.auditLog.count({ where });
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  const page = Math.min(q.page, pages);
  const entries = await db.auditLog.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (page - 1) * AUDIT_PAGE_SIZE,
    take: AUDIT_PAGE_SIZE,
    select: { id: true, createdAt: true, action: true, targetType: true, targetId: true, reason: true, actor: { select: { id: true, username: true, name: true } } },
  });
  const subjectOf = await subjects(entries);
  return {
    rows: entries.map((e) => ({
      id: e.id,
      createdAt: e.createdAt,
      actor: e.actor ? { username: e.actor.username, name: e.actor.name, userId: e.actor.id } : null,
      action: e.action,
      subject: subjectOf(e),
      reason: e.reason,
    })),
    page,
    pages,
    total,
  };
}
