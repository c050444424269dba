/**
 * The dataset browser's derived numbers, pure: which public
 * submissions stand for the public systems, how often they solved each bug,
 * each position and each whole chain, and the tables' export columns.
 *
 * Invariants:
 * - the population is the leaderboard's: one submission per public system ×
 *   mode, its newest completed public one; a system counts once per mode;
 * - a bug is solved when its own grade resolved it (lenient: whatever happened
 *   earlier in the chain), so a bug's difficulty is its own; a chain is solved
 *   when every bug is (the same under strict and lenient scoring);
 * - a submission attempts the chains it was evaluated on; a bug of such a chain
 *   with no result is unsolved (SPEC §4: missing = unresolved).
 */
import { z } from "zod";
import type { CsvColumn } from "@/lib/csv";
import { FieldError } from "@/lib/errors";
import { positionSetSchema, type PositionSet } from "@/evaluator/scoring";
import { MODES, type Mode } from "@/lib/schemas/prediction";
import type { DatasetStats } from "@/lib/schemas/columns";
import type { Fingerprint } from "@/lib/schemas/results";

// ---------------------------------------------------------------- solve rates

/** Solved out of attempted; pct is null when nothing was attempted. */
export type SolveRate = { solved: number; attempts: number; pct: number | null };

/** A rate over every standing submission and per mode. */
export type RatesByMode = Record<"all" | Mode, SolveRate>;

export const RATE_KEYS = ["all", ...MODES] as const;

/** Standing submissions per mode: the population every rate is over. */
export type Population = Record<Mode, number>;

/** The rate columns worth showing: all, and each mode some standing submission is in (every one when none is). */
export function shownRateKeys(population: Population): (typeof RATE_KEYS)[number][] {
  const modes = MODES.filter((m) => population[m] > 0);
  return ["all", ...(modes.length ? modes : MODES)];
}

export type ChainShape = { continuousId: string; length: number };

export type Verdict = { continuousId: string; order: number; resolved: boolean };

/** One public completed submission with its own-grade verdicts. */
export type PublicOutcome = {
  submissionId: string;
  systemId: string;
  mode: Mode;
  finishedAt: Date | null;
  /** chains it was evaluated on */
  chains: readonly string[];
  verdicts: readonly Verdict[];
};

/** The newest public completed submission of each system × mode (ties: the larger id, as the leaderboard orders). */
export function standingSubmissions<T extends Pick<PublicOutcome, "submissionId" | "systemId" | "mode" | "finishedAt">>(subs: readonly T[]): T[] {
  const time = (s: T) => s.finishedAt?.getTime() ?? -Infinity;
  const sorted = [...subs].sort((a, b) => time(b) - time(a) || (a.submissionId < b.submissionId ? 1 : a.submissionId > b.submissionId ? -1 : 0));
  const seen = new Set<string>();
  return sorted.filter((s) => {
    const key = `${s.systemId}\0${s.mode}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const emptyRates = (): RatesByMode => Object.fromEntries(RATE_KEYS.map((k) => [k, { solved: 0, attempts: 0, pct: null }])) as RatesByMode;

function tally(rates: RatesByMode, mode: Mode, solved: boolean): void {
  for (const key of ["all", mode] as const) {
    const r = rates[key];
    r.attempts += 1;
    if (solved) r.solved += 1;
    r.pct = (100 * r.solved) / r.attempts;
  }
}

/** Verdicts by chain, then order. */
function verdictIndex(o: PublicOutcome): Map<string, Map<number, boolean>> {
  const index = new Map<string, Map<number, boolean>>();
  for (const v of o.verdicts) {
    let chain = index.get(v.continuousId);
    if (!chain) index.set(v.continuousId, (chain = new Map()));
    chain.set(v.order, v.resolved);
  }
  return index;
}

/** Each attempt of a chain by a submission: its own-grade solved flags by position. */
function attempts(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[]): { chain: ChainShape; mode: Mode; solved: boolean[] }[] {
  const out: { chain: ChainShape; mode: Mode; solved: boolean[] }[] = [];
  for (const o of outcomes) {
    const covered = new Set(o.chains);
    const index = verdictIndex(o);
    for (const chain of chains) {
      if (!covered.has(chain.continuousId)) continue;
      const verdicts = index.get(chain.continuousId);
      out.push({ chain, mode: o.mode, solved: Array.from({ length: chain.length }, (_, i) => verdicts?.get(i + 1) === true) });
    }
  }
  return out;
}

/** Per chain: each bug's solve rate, by position (index 0 = bug 1). */
export function bugSolveRates(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[]): Map<string, RatesByMode[]> {
  const rates = new Map(chains.map((c) => [c.continuousId, Array.from({ length: c.length }, emptyRates)]));
  for (const a of attempts(chains, outcomes)) {
    a.solved.forEach((solved, i) => tally(rates.get(a.chain.continuousId)![i]!, a.mode, solved));
  }
  return rates;
}

/** Per chain: how often a standing submission solved every one of its bugs. */
export function chainSolveRates(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[]): Map<string, RatesByMode> {
  const rates = new Map(chains.map((c) => [c.continuousId, emptyRates()]));
  for (const a of attempts(chains, outcomes)) tally(rates.get(a.chain.continuousId)!, a.mode, a.solved.every(Boolean));
  return rates;
}

export type PositionSolveRate = { position: number; chains: number; rates: RatesByMode };

/** Solve rate at each position over the chosen chains (the paper's length-3 chains, or all). */
export function positionSolveRates(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[], positions: PositionSet): PositionSolveRate[] {
  const chosen = chains.filter((c) => positions === "all" || c.length === 3);
  const longest = Math.max(0, ...chosen.map((c) => c.length));
  const rows: PositionSolveRate[] = Array.from({ length: longest }, (_, i) => ({
    position: i + 1,
    chains: chosen.filter((c) => c.length > i).length,
    rates: emptyRates(),
  }));
  for (const a of attempts(chosen, outcomes)) a.solved.forEach((solved, i) => tally(rows[i]!.rates, a.mode, solved));
  return rows;
}

/** `62.5% (5/8)`; `—` when nothing was attempted. */
export function formatSolveRate(r: SolveRate): string {
  return r.pct === null ? "—" : `${r.pct.toFixed(1)}% (${r.solved}/${r.attempts})`;
}

// ---------------------------------------------------------------- problem statements

/** The first non-empty line of a problem statement, shortened: the summary of its collapsible text. */
export function problemTitle(statement: string, max = 120): string {
  const first = statement.split(/\r?\n/).find((l) => l.trim() !== "")?.trim() ?? "(no problem statement)";
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

// ---------------------------------------------------------------- repositories

export type RepositoryRow = { repo: string; chains: number; bugs: number };

/** The repositories of a version, by name, with their chain and bug counts. */
export function repositoryRows(chains: readonly { repo: string; length: number }[]): RepositoryRow[] {
  const rows = new Map<string, RepositoryRow>();
  for (const c of chains) {
    const row = rows.get(c.repo) ?? { repo: c.repo, chains: 0, bugs: 0 };
    row.chains += 1;
    row.bugs += c.length;
    rows.set(c.repo, row);
  }
  return [...rows.values()].sort((a, b) => (a.repo < b.repo ? -1 : a.repo > b.repo ? 1 : 0));
}

// ---------------------------------------------------------------- the pages' rows

/** A version with its stored statistics (lib/dataset/stats.ts; the optional ones are absent on versions imported before them). */
export type DatasetVersionRow = { version: string; createdAt: Date; sha256: string; modes: Mode[] } & DatasetStats;

export type DatasetChainRow = {
  continuousId: string;
  repo: string;
  length: number;
  dateRange: string;
  source: string;
  dockerImage: string;
  baseCommit: string;
  /** how often the standing submissions solved the whole chain */
  solved: RatesByMode;
};

/** One standing submission's outcome on one bug (a link to its failure page). */
export type BugOutcome = {
  submissionId: string;
  system: string;
  team: string;
  mode: Mode;
  /** null: the chain was attempted but this bug has no result (unresolved) */
  resolved: boolean | null;
  fingerprint: Fingerprint | null;
};

export type DatasetBugRow = {
  order: number;
  swebenchInstanceId: string;
  date: string;
  commitHash: string;
  problemStatement: string;
  goldFiles: string[];
  testFiles: string[];
  failToPass: number;
  passToPass: number;
  solved: RatesByMode;
  outcomes: BugOutcome[];
};

// ---------------------------------------------------------------- exports

/** A CSV column that also names the field of the JSON export, so both carry the same data. */
export type ExportColumn<T> = CsvColumn<T> & { key: string };

export const exportFormatSchema = z.enum(["json", "csv"]).default("json");

/** The JSON export's records: one object per row, keyed like the CSV's columns. */
export function exportRecords<T>(columns: readonly ExportColumn<T>[], rows: readonly T[]): Record<string, string | number | boolean | null>[] {
  return rows.map((r) => Object.fromEntries(columns.map((c) => [c.key, c.value(r) ?? null])));
}

const rateColumns = <T>(prefix: string, label: string, rates: (row: T) => RatesByMode): ExportColumn<T>[] =>
  RATE_KEYS.flatMap((k) => [
    { key: `${prefix}_${k}_solved`, label: `${label} ${k} solved`, value: (r: T) => rates(r)[k].solved },
    { key: `${prefix}_${k}_attempts`, label: `${label} ${k} attempts`, value: (r: T) => rates(r)[k].attempts },
    { key: `${prefix}_${k}_pct`, label: `${label} ${k} %`, value: (r: T) => rates(r)[k].pct },
  ]);

export const VERSION_COLUMNS: ExportColumn<DatasetVersionRow>[] = [
  { key: "version", label: "version", value: (r) => r.version },
  { key: "imported_at", label: "imported at", value: (r) => r.createdAt.toISOString() },
  { key: "repos", label: "repositories", value: (r) => r.repos },
  { key: "chains", label: "chains", value: (r) => r.chains },
  { key: "bugs", label: "bugs", value: (r) => r.bugs },
  { key: "modes", label: "modes", value: (r) => r.modes.join(" ") },
  { key: "sha256", label: "sha256", value: (r) => r.sha256 },
];

export const REPOSITORY_COLUMNS: ExportColumn<RepositoryRow & { version: string }>[] = [
  { key: "version", label: "version", value: (r) => r.version },
  { key: "repo", label: "repository", value: (r) => r.repo },
  { key: "chains", label: "chains", value: (r) => r.chains },
  { key: "bugs", label: "bugs", value: (r) => r.bugs },
];

export const CHAIN_COLUMNS: ExportColumn<DatasetChainRow>[] = [
  { key: "continuous_id", label: "chain", value: (r) => r.continuousId },
  { key: "repo", label: "repository", value: (r) => r.repo },
  { key: "length", label: "length", value: (r) => r.length },
  { key: "date_range", label: "date range", value: (r) => r.dateRange },
  { key: "source", label: "source", value: (r) => r.source },
  { key: "docker_image", label: "image", value: (r) => r.dockerImage },
  { key: "base_commit", label: "base commit", value: (r) => r.baseCommit },
  ...rateColumns<DatasetChainRow>("chain_solved", "whole chain", (r) => r.solved),
];

export const POSITION_COLUMNS: ExportColumn<PositionSolveRate>[] = [
  { key: "position", label: "position", value: (r) => r.position },
  { key: "chains", label: "chains", value: (r) => r.chains },
  ...rateColumns<PositionSolveRate>("solved", "solved", (r) => r.rates),
];

export const BUG_COLUMNS: ExportColumn<DatasetBugRow & { continuousId: string }>[] = [
  { key: "continuous_id", label: "chain", value: (r) => r.continuousId },
  { key: "order", label: "position", value: (r) => r.order },
  { key: "swebench_instance_id", label: "instance", value: (r) => r.swebenchInstanceId },
  { key: "date", label: "date", value: (r) => r.date },
  { key: "commit_hash", label: "commit", value: (r) => r.commitHash },
  { key: "gold_files", label: "gold files", value: (r) => r.goldFiles.join(" ") },
  { key: "test_files", label: "test files", value: (r) => r.testFiles.join(" ") },
  { key: "fail_to_pass", label: "FAIL_TO_PASS tests", value: (r) => r.failToPass },
  { key: "pass_to_pass", label: "PASS_TO_PASS tests", value: (r) => r.passToPass },
  ...rateColumns<DatasetBugRow & { continuousId: string }>("solved", "solved", (r) => r.solved),
  { key: "problem_statement", label: "problem statement", value: (r) => r.problemStatement },
];

// ---------------------------------------------------------------- query schemas (pages and exports)

/** /dataset and GET /api/v1/dataset */
export const datasetIndexQuerySchema = z.object({
  format: exportFormatSchema,
  table: z.enum(["versions", "repositories"]).default("versions"),
});

/** /dataset/[version] and GET /api/v1/dataset/[version] */
export const datasetVersionQuerySchema = z.object({
  format: exportFormatSchema,
  table: z.enum(["chains", "positions"]).default("chains"),
  positions: positionSetSchema.default("length3"),
  /** only the chains of one repository (owner/name) */
  repo: z.string().trim().min(1).optional(),
});
export type DatasetVersionQuery = z.infer<typeof datasetVersionQuerySchema>;

/** A query from the URL; a malformed one is answered with the defaults (pages) — exports refuse it instead. */
export function pageQuery<S extends z.ZodType>(schema: S, params: Record<string, string | string[] | undefined>): z.output<S> {
  const parsed = schema.safeParse(searchParamsObject(params));
  return parsed.success ? parsed.data : schema.parse({});
}

/** GET /api/v1/dataset/[version]/chains/[chain] */
export const datasetChainQuerySchema = z.object({ format: exportFormatSchema });

/** An export's query; a malformed one is refused (400) naming the parameter. */
export function exportQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const parsed = schema.safeParse(searchParamsObject(params));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new FieldError(String(issue?.path[0] ?? "query"), issue?.message ?? "invalid query");
}

/** The URL's search params as a plain object for a query schema (first value of repeated keys). */
export function searchParamsObject(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  const out: Record<string, string> = {};
  for (const [k, v] of entries) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && !(k in out)) out[k] = value;
  }
  return out;
}
