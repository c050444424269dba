/**
 * `chainswe regrade` over one evaluation directory: every bug of results.jsonl is
 * re-graded from its logs/<chain>/<order>/test_output.txt (./regrade.ts), the new
 * results are written beside the old ones (results.regraded.jsonl, plus regrade.json
 * naming the grader and every change), and the old files are left untouched.
 *
 * A bug's lists and parser come from the dataset when it is at hand (--dataset, or the
 * file summary.json names if its sha256 still matches), else from the result itself
 * (its splits and its recorded parser). A bug that cannot be re-graded (no log, no
 * bracketed run, no known parser) keeps its old line and is reported.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pLimit from "p-limit";
import { loadDataset, sha256File, type Dataset } from "@/evaluator/dataset";
import { GRADER_VERSION, PACKAGE_VERSION } from "@/core/grading";
import { bugLogDir, loadRunResults, resultLine } from "@/evaluator/replay/output";
import type { Chain } from "@/core/schemas/dataset";
import type { GradedBug } from "@/core/schemas/results";
import { listsFromResult, regradeBug, type TestChange } from "./regrade";

export const REGRADED_RESULTS_FILE = "results.regraded.jsonl";
export const REGRADE_REPORT_FILE = "regrade.json";

type Verdict = { resolved: boolean; fingerprint: string | null; tampered: boolean };
export type BugChange = { continuous_id: string; order: number; swebench_instance_id: string; old: Verdict; new: Verdict; tests: TestChange[] };
export type BugFailure = { continuous_id: string; order: number; reason: string };

export type DirRegrade = {
  dir: string;
  grader_version: string;
  package_version: string;
  /** where the bugs' lists and parsers came from */
  lists_from: "dataset" | "results";
  bugs: number;
  changed: BugChange[];
  failures: BugFailure[];
};

const verdictOf = (b: GradedBug): Verdict => ({ resolved: b.resolved, fingerprint: b.fingerprint, tampered: b.tampered });

/** The dataset given, else the one summary.json names if it is still there unchanged; null when neither. */
async function datasetFor(summaryDataset: { path: string; sha256: string }, given: Dataset | undefined): Promise<Dataset | null> {
  if (given) return given;
  try {
    if ((await sha256File(summaryDataset.path)) !== summaryDataset.sha256) return null;
    return await loadDataset(summaryDataset.path);
  } catch {
    return null; // moved or no longer readable: the results carry what a re-grade needs
  }
}

async function readLog(dir: string, bug: GradedBug): Promise<string | null> {
  try {
    return await readFile(join(bugLogDir(dir, bug.continuous_id, bug.order), "test_output.txt"), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** Re-grades one bug given its log text; the new line (or the old one when it cannot be re-graded). */
export function regradeStored(bug: GradedBug, log: string | null, chain: Chain | undefined, out: DirRegrade): GradedBug {
  const fail = (reason: string) => {
    out.failures.push({ continuous_id: bug.continuous_id, order: bug.order, reason });
    return bug;
  };
  if (log === null) return fail("no test_output.txt");
  const listed = chain?.bug_fixes[bug.order - 1];
  const lists = listed ? { failToPass: listed.FAIL_TO_PASS, passToPass: listed.PASS_TO_PASS } : listsFromResult(bug);
  const parser = chain?.log_parser ?? bug.log_parser;
  if (parser === undefined) return fail("the result names no parser and the dataset is not at hand (pass --dataset)");
  const outcome = regradeBug({ old: bug, log, parser, ...lists });
  if (!outcome.ok) return fail(outcome.reason);
  if (outcome.changed) {
    out.changed.push({
      continuous_id: bug.continuous_id,
      order: bug.order,
      swebench_instance_id: bug.swebench_instance_id,
      old: verdictOf(bug),
      new: verdictOf(outcome.bug),
      tests: outcome.tests,
    });
  }
  return outcome.bug;
}

export async function regradeDir(dir: string, opts: { dataset?: Dataset; concurrency?: number } = {}): Promise<DirRegrade> {
  const { summary, bugs } = await loadRunResults(dir);
  const dataset = await datasetFor(summary.dataset, opts.dataset);
  const chains = new Map((dataset?.chains ?? []).map((c) => [c.continuous_id, c]));
  const out: DirRegrade = {
    dir,
    grader_version: GRADER_VERSION,
    package_version: PACKAGE_VERSION,
    lists_from: dataset ? "dataset" : "results",
    bugs: bugs.length,
    changed: [],
    failures: [],
  };
  const limit = pLimit(opts.concurrency ?? 32);
  const logs = await Promise.all(bugs.map((b) => limit(() => readLog(dir, b))));
  const regraded = bugs.map((b, i) => regradeStored(b, logs[i] ?? null, chains.get(b.continuous_id), out));
  const tmp = join(dir, `${REGRADED_RESULTS_FILE}.tmp`);
  await writeFile(tmp, regraded.map(resultLine).join(""));
  await rename(tmp, join(dir, REGRADED_RESULTS_FILE));
  await writeFile(join(dir, REGRADE_REPORT_FILE), `${JSON.stringify({ ...out, at: new Date().toISOString() }, null, 2)}\n`);
  return out;
}

const verdictText = (v: Verdict) => (v.resolved ? "RESOLVED" : `UNRESOLVED (${v.fingerprint})`) + (v.tampered ? " [tampered]" : "");

/** What `chainswe regrade` prints for one directory: a summary line, then every changed verdict with its tests. */
export function formatDirRegrade(r: DirRegrade): string {
  const lines = [
    `${r.dir}: ${r.bugs} bug(s), grader ${r.grader_version} (lists from the ${r.lists_from}): ` +
      `${r.changed.length} verdict(s) changed, ${r.failures.length} not re-graded → ${join(r.dir, REGRADED_RESULTS_FILE)}`,
  ];
  for (const c of r.changed) {
    lines.push(`  ${c.continuous_id} bug ${c.order} (${c.swebench_instance_id}): ${verdictText(c.old)} → ${verdictText(c.new)}`);
    for (const t of c.tests) lines.push(`    ${t.list} ${t.id}: ${t.old} → ${t.new}`);
  }
  for (const f of r.failures) lines.push(`  not re-graded: ${f.continuous_id} bug ${f.order}: ${f.reason}`);
  return lines.join("\n");
}
