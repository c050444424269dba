/**
 * Checking a reproducibility bundle offline (docs/SPEC.md §7): every file's
 * sha256 against the manifest, every test log re-graded and compared with
 * results.jsonl, and the scores recomputed from results.jsonl compared with
 * report.json. Pure: it reads the files it is given and nothing else, so a
 * third party needs neither this server nor Docker. Each disagreement names
 * the file it is found in.
 */
import { buildReport, reportSchema } from "@/core/analysis/report";
import { regradeStored, type DirRegrade } from "@/evaluator/regrade";
import { chainSchema, type Chain } from "@/core/schemas/dataset";
import { gradedBugSchema, runSummarySchema, type GradedBug } from "@/core/schemas/results";
import { MANIFEST_FILE, bundleLogPath, environmentSchema, manifestSchema, sha256 } from "./bundle";

export type BundleProblem = { file: string; problem: string };
export type BundleCheck = { bugs: number; regraded: number; problems: BundleProblem[] };

/** The first path at which two JSON values differ, or null when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (Object.is(a, b)) return null;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return path || "(the whole document)";
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k);
    if (d !== null) return d;
  }
  return null;
}

function jsonOf(files: Map<string, Buffer>, path: string, problems: BundleProblem[]): unknown {
  const data = files.get(path);
  if (!data) {
    problems.push({ file: path, problem: "missing" });
    return undefined;
  }
  try {
    return JSON.parse(data.toString("utf8"));
  } catch (e) {
    problems.push({ file: path, problem: `not JSON: ${(e as Error).message}` });
    return undefined;
  }
}

/** Lines of a JSONL file through a schema; a bad line is a problem naming it. */
function linesOf<T>(files: Map<string, Buffer>, path: string, parse: (v: unknown) => T, problems: BundleProblem[]): T[] {
  const data = files.get(path);
  if (!data) {
    problems.push({ file: path, problem: "missing" });
    return [];
  }
  const out: T[] = [];
  data
    .toString("utf8")
    .split("\n")
    .forEach((line, i) => {
      if (!line.trim()) return;
      try {
        out.push(parse(JSON.parse(line)));
      } catch (e) {
        problems.push({ file: `${path} line ${i + 1}`, problem: (e as Error).message.split("\n")[0]! });
      }
    });
  return out;
}

const verdict = (b: Pick<GradedBug, "resolved" | "fingerprint" | "tampered">) => (b.resolved ? "RESOLVED" : `UNRESOLVED (${b.fingerprint})`) + (b.tampered ? " [tampered]" : "");

export function verifyBundle(files: Map<string, Buffer>): BundleCheck {
  const problems: BundleProblem[] = [];
  // 1. the manifest: every file it lists, with its hash, and no other
  const manifest = manifestSchema.safeParse(jsonOf(files, MANIFEST_FILE, problems));
  if (!manifest.success) {
    if (files.has(MANIFEST_FILE)) problems.push({ file: MANIFEST_FILE, problem: "not a bundle manifest" });
  } else {
    for (const [path, hash] of Object.entries(manifest.data.files)) {
      const data = files.get(path);
      if (!data) problems.push({ file: path, problem: "listed in the manifest but missing" });
      else if (sha256(data) !== hash) problems.push({ file: path, problem: "changed: its sha256 is not the manifest's" });
    }
    for (const path of files.keys()) {
      if (path !== MANIFEST_FILE && !(path in manifest.data.files)) problems.push({ file: path, problem: "not listed in the manifest" });
    }
  }
  // 2. the dataset the run was graded against, as environment.json names it
  const environment = environmentSchema.safeParse(jsonOf(files, "environment.json", problems));
  const dataset = files.get("dataset.jsonl");
  if (environment.success && dataset && sha256(dataset) !== environment.data.dataset.sha256) {
    problems.push({ file: "dataset.jsonl", problem: "its sha256 is not the one environment.json records" });
  }
  const chains = new Map<string, Chain>(linesOf(files, "dataset.jsonl", (v) => chainSchema.parse(v), problems).map((c) => [c.continuous_id, c]));
  // 3. every verdict again from its log
  const bugs = linesOf(files, "results.jsonl", (v) => gradedBugSchema.parse(v), problems);
  const regrade: DirRegrade = { dir: "bundle", grader_version: "", package_version: "", lists_from: "dataset", bugs: bugs.length, changed: [], failures: [] };
  for (const bug of bugs) {
    const logPath = bundleLogPath(bug.continuous_id, bug.order, "test_output.txt");
    const chain = chains.get(bug.continuous_id);
    if (!chain) problems.push({ file: "dataset.jsonl", problem: `no chain ${bug.continuous_id}, which results.jsonl grades` });
    const again = regradeStored(bug, files.get(logPath)?.toString("utf8") ?? null, chain, regrade);
    const changed = regrade.changed.at(-1);
    if (changed && changed.continuous_id === bug.continuous_id && changed.order === bug.order) {
      const tests = changed.tests.map((t) => `${t.list} ${t.id}: ${t.old} → ${t.new}`).join("; ");
      problems.push({ file: logPath, problem: `re-grading gives ${verdict(again)}, results.jsonl says ${verdict(bug)}${tests ? ` (${tests})` : ""}` });
    }
  }
  for (const f of regrade.failures) problems.push({ file: bundleLogPath(f.continuous_id, f.order, "test_output.txt"), problem: `cannot be re-graded: ${f.reason}` });
  // 4. the scores from results.jsonl, as report.json states them
  const summary = runSummarySchema.safeParse(jsonOf(files, "summary.json", problems));
  const reportJson = jsonOf(files, "report.json", problems);
  const report = reportSchema.safeParse(reportJson);
  if (!summary.success && files.has("summary.json")) problems.push({ file: "summary.json", problem: "not a run summary" });
  if (!report.success && files.has("report.json")) problems.push({ file: "report.json", problem: "not a report" });
  if (summary.success && report.success) {
    const { seed, draws } = report.data.bootstrap;
    const recomputed = buildReport([{ summary: summary.data, bugs }], { positions: report.data.positions, seed, draws });
    const diff = firstDifference(JSON.parse(JSON.stringify(recomputed)), reportJson);
    if (diff !== null) problems.push({ file: "report.json", problem: `differs from the scores recomputed from results.jsonl at ${diff}` });
  }
  return { bugs: bugs.length, regraded: bugs.length - regrade.failures.length, problems };
}
