/**
 * The list of submissions a viewer may read (SPEC §6): public ones to
 * everybody, their own teams' to members, all to reviewers (lib/authz.ts
 * canReadSubmission, as a query). Newest first, filtered, paged by an opaque
 * cursor. `GET /api/v1/submissions` and the /submissions page both call
 * `listSubmissions`, so they always agree.
 */
import { z } from "zod";
import { isReviewer } from "@/lib/authz";
import { db } from "@/db/client";
import { FieldError } from "@/core/errors";
import type { Prisma } from "@/db/generated/prisma/client";
import {
  submissionStatusSchema,
  visibilitySchema,
  type SubmissionStatus,
  type Visibility,
} from "@/core/schemas/columns";
import { modeSchema, type Mode } from "@/core/schemas/prediction";
import type { Viewer } from "@/lib/accounts/users";

// ---------------------------------------------------------------- the query

/** "" (a form's "any") is no filter. */
const optional = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), schema.optional());

export const DEFAULT_PAGE_SIZE = 50;

/** Query parameters of GET /api/v1/submissions and of the /submissions page. */
export const submissionListQuerySchema = z.object({
  /** a team's slug or its name */
  team: optional(z.string().trim().min(1)),
  /** system id */
  system: optional(z.string().trim().min(1)),
  mode: optional(modeSchema),
  dataset_version: optional(z.string().trim().min(1)),
  status: optional(submissionStatusSchema),
  visibility: optional(visibilitySchema),
  /** `nextCursor` of the previous page */
  cursor: optional(z.string().trim().min(1)),
  limit: optional(z.coerce.number().int().min(1).max(200)).transform((n) => n ?? DEFAULT_PAGE_SIZE),
});
export type SubmissionListQuery = z.infer<typeof submissionListQuerySchema>;

/** The query from URL search params (or a page's searchParams); a bad value is a FieldError naming it. */
export function parseSubmissionListQuery(params: URLSearchParams | Record<string, string | string[] | undefined>): SubmissionListQuery {
  const raw: Record<string, string> = {};
  if (params instanceof URLSearchParams) params.forEach((v, k) => (raw[k] = v));
  else for (const [k, v] of Object.entries(params)) if (v !== undefined) raw[k] = Array.isArray(v) ? (v[0] ?? "") : v;
  const parsed = submissionListQuerySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new FieldError(String(issue.path[0] ?? ""), issue.message);
}

// ---------------------------------------------------------------- the answer

/** One row of the list. Dates are Date objects here; the API sends them as ISO strings. */
export type SubmissionListItem = {
  id: string;
  system: { id: string; name: string; model: string; team: { slug: string; name: string } };
  mode: Mode;
  /** the dataset version's name, e.g. "v1" */
  datasetVersion: string;
  status: SubmissionStatus;
  visibility: Visibility;
  createdAt: Date;
  /** when the evaluation ended; null while queued or running */
  finishedAt: Date | null;
  /** chains: one evaluation job each; `done` have handed in their results */
  chains: { total: number; done: number };
  /** bugs of the submitted chains; `graded` have a result, `resolved` of those resolved */
  bugs: { total: number; graded: number; resolved: number };
};

export type SubmissionPage = {
  items: SubmissionListItem[];
  /** pass as `cursor` for the next (older) page; null on the last page */
  nextCursor: string | null;
};

// ---------------------------------------------------------------- cursor

function encodeCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString("base64url");
}

const cursorSchema = z.tuple([z.iso.datetime(), z.string().min(1)]);

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = cursorSchema.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return { createdAt: new Date(at), id };
  } catch {
    throw new FieldError("cursor", "not a cursor this list gave out");
  }
}

// ---------------------------------------------------------------- the query itself

/** Rows the viewer may read (canReadSubmission as a where clause). */
function readableWhere(viewer: Viewer | null): Prisma.SubmissionWhereInput {
  if (isReviewer(viewer)) return {};
  const teamIds = viewer?.teams.map((t) => t.id) ?? [];
  return teamIds.length ? { OR: [{ visibility: "public" }, { system: { teamId: { in: teamIds } } }] } : { visibility: "public" };
}

function filterWhere(q: SubmissionListQuery): Prisma.SubmissionWhereInput[] {
  const where: Prisma.SubmissionWhereInput[] = [];
  // a team by its slug or by its name as shown on the pages
  if (q.team) where.push({ system: { team: { OR: [{ slug: q.team }, { name: q.team }] } } });
  if (q.system) where.push({ systemId: q.system });
  if (q.mode) where.push({ mode: q.mode });
  if (q.dataset_version) where.push({ datasetVersion: { version: q.dataset_version } });
  if (q.status) where.push({ status: q.status });
  if (q.visibility) where.push({ visibility: q.visibility });
  if (q.cursor) {
    const c = decodeCursor(q.cursor);
    where.push({ OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }] });
  }
  return where;
}

/** Per submission: jobs done/total, results graded/resolved, and the bugs of its chains. */
async function counts(rows: { id: string; datasetVersionId: string }[]) {
  const ids = rows.map((r) => r.id);
  const [jobs, results, chains] = await Promise.all([
    db.evaluationJob.findMany({ where: { submissionId: { in: ids } }, select: { submissionId: true, continuousId: true, status: true } }),
    db.bugResult.groupBy({ by: ["submissionId", "resolved"], where: { submissionId: { in: ids } }, _count: { _all: true } }),
    db.chain.findMany({
      where: { datasetVersionId: { in: [...new Set(rows.map((r) => r.datasetVersionId))] } },
      select: { datasetVersionId: true, continuousId: true, _count: { select: { bugs: true } } },
    }),
  ]);
  const bugsOfChain = new Map(chains.map((c) => [`${c.datasetVersionId}\u0000${c.continuousId}`, c._count.bugs]));
  const versionOf = new Map(rows.map((r) => [r.id, r.datasetVersionId]));
  const out = new Map(ids.map((id) => [id, { chains: { total: 0, done: 0 }, bugs: { total: 0, graded: 0, resolved: 0 } }]));
  for (const j of jobs) {
    const c = out.get(j.submissionId)!;
    c.chains.total++;
    if (j.status === "done") c.chains.done++;
    c.bugs.total += bugsOfChain.get(`${versionOf.get(j.submissionId)}\u0000${j.continuousId}`) ?? 0;
  }
  for (const r of results) {
    const c = out.get(r.submissionId)!;
    c.bugs.graded += r._count._all;
    if (r.resolved) c.bugs.resolved += r._count._all;
  }
  return out;
}

/**
 * The submissions the viewer (null: a visitor) may read that match the
 * filters, newest first, one page of `limit`. A filter naming something the
 * viewer cannot see simply matches nothing.
 */
export async function listSubmissions(viewer: Viewer | null, query: Partial<SubmissionListQuery> = {}): Promise<SubmissionPage> {
  const q = submissionListQuerySchema.parse(query);
  const rows = await db.submission.findMany({
    where: { AND: [readableWhere(viewer), ...filterWhere(q)] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    select: {
      id: true,
      mode: true,
      status: true,
      visibility: true,
      createdAt: true,
      finishedAt: true,
      datasetVersionId: true,
      datasetVersion: { select: { version: true } },
      system: { select: { id: true, name: true, model: true, team: { select: { slug: true, name: true } } } },
    },
  });
  const page = rows.slice(0, q.limit);
  const byId = await counts(page);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: r.id,
      system: r.system,
      mode: modeSchema.parse(r.mode),
      datasetVersion: r.datasetVersion.version,
      status: submissionStatusSchema.parse(r.status),
      visibility: visibilitySchema.parse(r.visibility),
      createdAt: r.createdAt,
      finishedAt: r.finishedAt,
      ...byId.get(r.id)!,
    })),
    nextCursor: rows.length > q.limit && last ? encodeCursor(last.createdAt, last.id) : null,
  };
}
