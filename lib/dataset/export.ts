/**
 * The dataset tables' columns for GET /api/v1/dataset…: each CSV column also
 * names its field in the JSON export, so both carry the same data.
 */
import type { ExportColumn } from "@/lib/export/table";
import { type PositionSolveRate, RATE_KEYS, type RatesByMode } from "@/lib/dataset/solve-rates";
import type { DiscriminationView } from "@/lib/dataset/discrimination";
import type { DatasetBugRow, DatasetChainRow, DatasetVersionRow, RepositoryRow } from "@/lib/dataset/view";

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

type DiscriminationItem = DiscriminationView["chains"][number] | DiscriminationView["bugs"][number];

/** The figures both tables carry (SPEC §4 "Chains that still discriminate"). */
const itemColumns = <T extends DiscriminationItem>(): ExportColumn<T>[] => [
  { key: "mode", label: "mode", value: (r) => r.mode },
  { key: "solve_rate", label: "solve rate", value: (r) => r.solve_rate },
  { key: "point_biserial", label: "point-biserial", value: (r) => r.point_biserial },
  { key: "difficulty", label: "Rasch difficulty", value: (r) => r.difficulty },
  { key: "solved_by_all", label: "solved by all", value: (r) => r.solved_by_all },
  { key: "solved_by_none", label: "solved by none", value: (r) => r.solved_by_none },
  { key: "separates_top", label: "separates the top rows", value: (r) => r.separates_top },
];

export const DISCRIMINATION_CHAIN_COLUMNS: ExportColumn<DiscriminationView["chains"][number]>[] = [
  { key: "continuous_id", label: "chain", value: (r) => r.continuous_id },
  ...itemColumns<DiscriminationView["chains"][number]>(),
];

export const DISCRIMINATION_BUG_COLUMNS: ExportColumn<DiscriminationView["bugs"][number]>[] = [
  { key: "continuous_id", label: "chain", value: (r) => r.continuous_id },
  { key: "order", label: "position", value: (r) => r.order },
  ...itemColumns<DiscriminationView["bugs"][number]>(),
];
