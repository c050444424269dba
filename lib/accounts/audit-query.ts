/**
 * The audit log's view held in the admin page's URL: filter (action, actor,
 * subject) and page number, read like every view's (lib/view-query.ts: a bad
 * value is reported and left out, never an error), and written back as links.
 * Pure: the page's components take it too.
 */
import { z } from "zod";
import { auditActionSchema } from "@/core/schemas/columns";
import { hrefWith, parseViewQuery, single, text, type QueryProblem, type RawParams } from "@/lib/view-query";

/** Rows per page of the audit log. */
export const AUDIT_PAGE_SIZE = 50;
/** Past this a number is no page: refused before any query. */
const MAX_PAGE = 10_000;

export const auditQuerySchema = z.object({
  action: single(auditActionSchema.optional()),
  /** the actor's username */
  actor: single(text.optional()),
  /** what was acted on: its id, or a user's username */
  subject: single(text.optional()),
  page: single(z.coerce.number<string>().int("a whole page number").min(1, "pages start at 1").max(MAX_PAGE, `at most page ${MAX_PAGE}`).default(1)),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

/** The query from the page's URL; each bad value reported (and left out). */
export function parseAuditQuery(params: RawParams): { query: AuditQuery; problems: QueryProblem[] } {
  return parseViewQuery(auditQuerySchema, params);
}

/** The admin page's URL for this filter and page, at the audit log. */
export const auditHref = (q: Partial<AuditQuery>): string =>
  hrefWith("/admin", { action: q.action, actor: q.actor, subject: q.subject, page: q.page && q.page > 1 ? q.page : undefined }, "audit-heading");

/** A user's row in the admin page's user table. */
export const userAnchor = (userId: string) => `#user-${userId}`;
