/**
 * The dataset pages' rows: versions, repositories, chains, bugs and their
 * outcomes, and a problem statement's title. Pure.
 */
import { type Mode } from "@/core/schemas/prediction";
import type { DatasetStats } from "@/core/schemas/columns";
import type { Fingerprint } from "@/core/schemas/results";
import type { RatesByMode } from "@/lib/dataset/solve-rates";

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

/** A version with its stored statistics (core/dataset/stats.ts; the optional ones are absent on versions imported before them). */
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
