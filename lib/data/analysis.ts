/**
 * The per-position view, the chain-error analysis and the comparison of two
 * submissions (issue 4, items 2–4), and their exports. Reads what was stored
 * when evaluations completed (leaderboard rows, ChainErrorAnalysis rows); only
 * the comparison scores on request, with the evaluator's pairedComparison over
 * both submissions' results. Everything shown is public, except a compared
 * submission the viewer may read (lib/authz.ts, as the submission page).
 */
import { z } from "zod";
import { causeSchema, chainErrorBreakdownSchema, seqModeSchema, type ChainError, type ChainErrorBreakdown, type SeqMode } from "@/evaluator/analysis";
import { MODE_LABELS, pairedComparison, positionSetSchema, scoringSchema, type PairedComparison } from "@/evaluator/scoring";
import {
  FINGERPRINT_KEYS,
  chainWinLoss,
  filterChainErrors,
  positionTable,
  reportedPositionTable,
  scatterPoints,
  sumBreakdowns,
  type ChainWinLoss,
  type CombinedBreakdown,
  type PositionTable,
  type ScatterPoint,
} from "@/lib/analysis-view";
import type { Viewer } from "@/lib/authz";
import { db } from "@/lib/db";
import { FieldError } from "@/lib/errors";
import { parseColumn } from "@/lib/schemas/columns";
import { modeSchema, type Mode } from "@/lib/schemas/prediction";
import { reportedPositionsByConfig, reportedPositionsByModel } from "@/lib/reference/paper";
import { storedChainErrorsSchema } from "./aggregates";
import { getLeaderboard, type LeaderboardRow } from "./leaderboard";
import { runResultsForSubmission } from "./run-results";
import { readableSubmission } from "./submission-view";

// ---------------------------------------------------------------- queries (pages and their export routes share them)

export type RawParams = URLSearchParams | Record<string, string | string[] | undefined>;

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
/** one value; "" (a form's "any") and a missing parameter are the same */
const one = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (first(v) === "" ? undefined : first(v)), schema);
/** a repeatable parameter (`?system=a&system=b`) */
const many = z.preprocess(
  (v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).filter((x) => x !== "")),
  z.array(z.string().trim().min(1)).max(100),
);
const text = z.string().trim().min(1).max(200);

const versionField = one(text.optional());
const scoringField = one(scoringSchema.default("strict"));
const formatField = one(z.enum(["json", "csv"]).default("json"));

export const positionsQuerySchema = z.object({
  version: versionField,
  scoring: scoringField,
  /** the paper's length-3 chains (default) or all chains */
  positions: one(positionSetSchema.default("length3")),
  /** restricts the by-model table to one configuration */
  config: one(text.optional()),
  /** restricts the by-configuration table to one model */
  model: one(text.optional()),
  /** `paper=1` also shows the paper's Tables 3 and 4 as printed (off by default; never mixed with evaluated rows) */
  paper: one(z.enum(["0", "1"]).optional()).transform((v) => v === "1"),
});
export type PositionsQuery = z.infer<typeof positionsQuerySchema>;

export const analysisQuerySchema = z.object({
  version: versionField,
  /** system ids; none = every system */
  system: many,
  mode: one(seqModeSchema.optional()),
  // these three narrow the list of chain errors only, not the breakdowns
  position: one(z.coerce.number().int().min(2).optional()),
  cause: one(causeSchema.optional()),
  fingerprint: one(z.enum(FINGERPRINT_KEYS).optional()),
});
export type AnalysisQuery = z.infer<typeof analysisQuerySchema>;

export const compareQuerySchema = z.object({
  version: versionField,
  /** submission ids */
  a: one(text.optional()),
  b: one(text.optional()),
  scoring: scoringField,
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export const positionsExportQuerySchema = positionsQuerySchema.extend({
  table: one(z.enum(["by_config", "by_model", "reported_by_config", "reported_by_model"]).default("by_config")),
  format: formatField,
});
export const analysisExportQuerySchema = analysisQuerySchema.extend({
  table: one(z.enum(["positions", "systems", "errors"]).default("positions")),
  format: formatField,
});
export const compareExportQuerySchema = compareQuerySchema.extend({
  table: one(z.enum(["difference", "chains", "systems"]).default("systems")),
  format: formatField,
});

/** The query from URL search params or a page's searchParams; a bad value is a FieldError naming it. */
export function parseQuery<S extends z.ZodType>(schema: S, params: RawParams): z.infer<S> {
  const raw: Record<string, string | string[]> = {};
  if (params instanceof URLSearchParams) {
    for (const k of new Set(params.keys())) {
      const all = params.getAll(k);
      raw[k] = all.length === 1 ? (all[0] as string) : all;
    }
  } else for (const [k, v] of Object.entries(params)) if (v !== undefined) raw[k] = v;
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new FieldError(String(issue.path[0] ?? ""), issue.message);
}

// ---------------------------------------------------------------- per position

export type PositionsView = {
  version: string | null;
  versions: string[];
  query: PositionsQuery;
  configs: string[];
  models: string[];
  /** leaderboard rows (public system × mode) behind the tables */
  rows: number;
  byConfig: PositionTable;
  byModel: PositionTable;
  /** the paper's Tables 3 and 4 when asked for: reported, not re-evaluated here */
  reported: { byConfig: PositionTable; byModel: PositionTable } | null;
};

const distinct = (xs: string[]) => [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export async function getPositionsView(query: PositionsQuery): Promise<PositionsView> {
  const board = await getLeaderboard({ version: query.version, scoring: query.scoring, positions: query.positions });
  const rows = board.rows;
  return {
    version: board.version,
    versions: board.versions,
    query,
    configs: distinct(rows.map((r) => r.system.contextConfig)),
    models: distinct(rows.map((r) => r.system.model)),
    rows: rows.length,
    byConfig: positionTable(query.model ? rows.filter((r) => r.system.model === query.model) : rows, "config"),
    byModel: positionTable(query.config ? rows.filter((r) => r.system.contextConfig === query.config) : rows, "model"),
    reported: query.paper
      ? { byConfig: reportedPositionTable(reportedPositionsByConfig(), "config"), byModel: reportedPositionTable(reportedPositionsByModel(), "model") }
      : null,
  };
}

// ---------------------------------------------------------------- chain errors

export type AnalysisEntry = {
  seqSubmissionId: string;
  oracleSubmissionId: string;
  system: { id: string; name: string; model: string; contextConfig: string };
  team: { name: string; slug: string };
  mode: SeqMode;
  breakdown: ChainErrorBreakdown;
};

export type ChainErrorRow = ChainError & { seqSubmissionId: string; systemId: string; team: string };

export type SystemOption = { id: string; name: string; team: string; modes: SeqMode[] };

export type ChainErrorView = {
  version: string | null;
  versions: string[];
  query: AnalysisQuery;
  /** every system with a public analysis on the version, for the filter */
  systems: SystemOption[];
  /** the analyses the system and mode filters keep */
  analyses: AnalysisEntry[];
  combined: CombinedBreakdown;
  /** their chain errors, narrowed by position, cause and fingerprint */
  errors: ChainErrorRow[];
  /** their chain errors before that narrowing */
  errorsTotal: number;
};

async function versionsNewestFirst(): Promise<string[]> {
  return (await db.datasetVersion.findMany({ orderBy: { createdAt: "desc" }, select: { version: true } })).map((v) => v.version);
}

/**
 * Stored analyses of public Seq / Seq+Mem submissions whose Oracle submission is
 * public too; the newest per system × mode stands for it, as on the leaderboard.
 */
async function publicAnalyses(version: string): Promise<(AnalysisEntry & { errors: ChainError[] })[]> {
  const visible = { visibility: "public", status: "completed" };
  const rows = await db.chainErrorAnalysis.findMany({
    where: { seqSubmission: { ...visible, datasetVersion: { version } }, oracleSubmission: visible },
    orderBy: [{ seqSubmission: { finishedAt: "desc" } }, { seqSubmissionId: "desc" }],
    select: {
      seqSubmissionId: true,
      oracleSubmissionId: true,
      chainErrors: true,
      breakdown: true,
      seqSubmission: {
        select: {
          mode: true,
          system: { select: { id: true, name: true, model: true, contextConfig: true, team: { select: { name: true, slug: true } } } },
        },
      },
    },
  });
  const seen = new Set<string>();
  return rows.flatMap((r) => {
    const { team, ...system } = r.seqSubmission.system;
    const key = `${system.id}\0${r.seqSubmission.mode}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [
      {
        seqSubmissionId: r.seqSubmissionId,
        oracleSubmissionId: r.oracleSubmissionId,
        system,
        team,
        mode: seqModeSchema.parse(r.seqSubmission.mode),
        breakdown: parseColumn(chainErrorBreakdownSchema, r.breakdown, "ChainErrorAnalysis.breakdown"),
        errors: parseColumn(storedChainErrorsSchema, r.chainErrors, "ChainErrorAnalysis.chainErrors"),
      },
    ];
  });
}

const bySystemThenMode = (a: AnalysisEntry, b: AnalysisEntry) =>
  (a.system.name < b.system.name ? -1 : a.system.name > b.system.name ? 1 : 0) || (a.mode < b.mode ? -1 : a.mode > b.mode ? 1 : 0);

export async function getChainErrorView(query: AnalysisQuery): Promise<ChainErrorView> {
  const versions = await versionsNewestFirst();
  const version = query.version ?? versions[0] ?? null;
  const all = version && versions.includes(version) ? (await publicAnalyses(version)).sort(bySystemThenMode) : [];
  const systems = new Map<string, SystemOption>();
  for (const a of all) {
    const opt = systems.get(a.system.id) ?? { id: a.system.id, name: a.system.name, team: a.team.name, modes: [] };
    opt.modes.push(a.mode);
    systems.set(a.system.id, opt);
  }
  const picked = new Set(query.system);
  const kept = all.filter((a) => (picked.size === 0 || picked.has(a.system.id)) && (!query.mode || a.mode === query.mode));
  const errors: ChainErrorRow[] = kept.flatMap((a) =>
    a.errors.map((e) => ({ ...e, seqSubmissionId: a.seqSubmissionId, systemId: a.system.id, team: a.team.name })),
  );
  return {
    version,
    versions,
    query,
    systems: [...systems.values()],
    analyses: kept.map(({ errors: _, ...entry }) => entry),
    combined: sumBreakdowns(kept.map((a) => a.breakdown)),
    errors: filterChainErrors(errors, query),
    errorsTotal: errors.length,
  };
}

// ---------------------------------------------------------------- comparison

export type ComparePick = {
  submissionId: string;
  systemName: string;
  teamName: string;
  model: string;
  mode: Mode;
  visibility: string;
  datasetVersion: string;
};

export type CompareOption = { submissionId: string; label: string; visibility: string };

export type CompareView = {
  version: string | null;
  versions: string[];
  query: CompareQuery;
  /** the leaderboard's rows, plus a picked submission that is not among them (one the viewer may read) */
  options: CompareOption[];
  a: ComparePick | null;
  b: ComparePick | null;
  /** why there is no comparison although both are picked */
  problem: string | null;
  paired: PairedComparison | null;
  chains: ChainWinLoss[];
  rows: LeaderboardRow[];
  scatter: { points: ScatterPoint[]; withoutCost: string[] };
};

const optionLabel = (p: { systemName: string; teamName: string; mode: Mode }) => `${p.systemName} · ${MODE_LABELS[p.mode]} (${p.teamName})`;

/** A submission the viewer may read and that finished evaluating; NotFoundError / FieldError otherwise. */
async function pick(viewer: Viewer | null, id: string, field: "a" | "b"): Promise<ComparePick> {
  const access = await readableSubmission(viewer, id);
  if (access.status !== "completed") throw new FieldError(field, `submission ${id} has not completed its evaluation`);
  const s = await db.submission.findUniqueOrThrow({
    where: { id },
    select: { mode: true, system: { select: { name: true, model: true, team: { select: { name: true } } } }, datasetVersion: { select: { version: true } } },
  });
  return {
    submissionId: id,
    systemName: s.system.name,
    teamName: s.system.team.name,
    model: s.system.model,
    mode: modeSchema.parse(s.mode),
    visibility: access.visibility,
    datasetVersion: s.datasetVersion.version,
  };
}

/**
 * The comparison of submissions `a` and `b` (when both are given), on the
 * dataset version of `a` unless one is asked for. Throws NotFoundError for a
 * submission the viewer may not read, FieldError for one still evaluating.
 */
export async function getComparison(viewer: Viewer | null, query: CompareQuery): Promise<CompareView> {
  const [a, b] = await Promise.all([query.a ? pick(viewer, query.a, "a") : null, query.b ? pick(viewer, query.b, "b") : null]);
  const board = await getLeaderboard({ version: query.version ?? a?.datasetVersion ?? b?.datasetVersion, scoring: query.scoring });
  const options: CompareOption[] = board.rows.map((r) => ({
    submissionId: r.submissionId,
    label: optionLabel({ systemName: r.system.name, teamName: r.team.name, mode: r.mode }),
    visibility: "public",
  }));
  for (const p of [a, b]) {
    if (p && !options.some((o) => o.submissionId === p.submissionId)) {
      options.push({ submissionId: p.submissionId, label: `${optionLabel(p)} · dataset ${p.datasetVersion}`, visibility: p.visibility });
    }
  }
  let problem: string | null = null;
  let paired: PairedComparison | null = null;
  let chains: ChainWinLoss[] = [];
  if (a && b) {
    const [ra, rb] = await Promise.all([runResultsForSubmission(a.submissionId), runResultsForSubmission(b.submissionId)]);
    if (a.datasetVersion !== b.datasetVersion) problem = `they were evaluated on different dataset versions (${a.datasetVersion} and ${b.datasetVersion})`;
    else if (ra && rb) {
      try {
        paired = pairedComparison(ra, rb, { scoring: query.scoring });
        chains = chainWinLoss(ra, rb, query.scoring);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        problem = e.message;
      }
    }
  }
  return {
    version: board.version,
    versions: board.versions,
    query,
    options,
    a,
    b,
    problem,
    paired,
    chains,
    rows: board.rows,
    scatter: scatterPoints(board.rows, { a: a?.submissionId, b: b?.submissionId }),
  };
}
