/**
 * The evaluation directory (SPEC §3 "Evaluation output"): results.jsonl,
 * errors.jsonl, logs/<chain>/<order>/, summary.json. A chain's results are
 * appended in one write when the whole chain is graded, so a crash never
 * leaves half a chain behind; a resumed run skips every finished chain.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gradedBugSchema, runSummarySchema, type GradedBug, type RunError, type RunSummary } from "@/core/schemas/results";
import type { BugArtifacts } from "./chain";

export const RESULTS_FILE = "results.jsonl";
export const ERRORS_FILE = "errors.jsonl";
export const SUMMARY_FILE = "summary.json";

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** One results.jsonl line (SPEC §3), newline included: the one serialization, shared with the portal's download. */
export function resultLine(bug: GradedBug): string {
  return `${JSON.stringify(bug)}\n`;
}

export async function readSummary(dir: string): Promise<RunSummary | null> {
  const text = await readIfExists(join(dir, SUMMARY_FILE));
  return text === null ? null : runSummarySchema.parse(JSON.parse(text));
}

export async function writeSummary(dir: string, summary: RunSummary): Promise<void> {
  const tmp = join(dir, `${SUMMARY_FILE}.tmp`);
  await writeFile(tmp, `${JSON.stringify(summary, null, 2)}\n`);
  await rename(tmp, join(dir, SUMMARY_FILE));
}

/** Parses results.jsonl leniently: a torn last line is dropped, not fatal. */
export async function readResults(dir: string): Promise<GradedBug[]> {
  return (await readResultLines(dir)).bugs;
}

async function readResultLines(dir: string): Promise<{ bugs: GradedBug[]; lines: number }> {
  const text = await readIfExists(join(dir, RESULTS_FILE));
  if (!text) return { bugs: [], lines: 0 };
  const out: GradedBug[] = [];
  const lines = text.split("\n").filter((l) => l.trim());
  for (const line of lines) {
    try {
      const parsed = gradedBugSchema.safeParse(JSON.parse(line));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // torn write from an interrupted run
    }
  }
  return { bugs: out, lines: lines.length };
}

/**
 * Chains already complete in DIR (every bug graded); rewrites results.jsonl
 * without partial chains so appends stay consistent.
 */
export async function finishedChains(dir: string, lengths: Map<string, number>): Promise<Set<string>> {
  const { bugs, lines } = await readResultLines(dir);
  const byChain = new Map<string, GradedBug[]>();
  for (const b of bugs) byChain.set(b.continuous_id, [...(byChain.get(b.continuous_id) ?? []), b]);
  const done = new Set<string>();
  for (const [id, list] of byChain) {
    if (new Set(list.map((b) => b.order)).size === lengths.get(id)) done.add(id);
  }
  const kept = bugs.filter((b) => done.has(b.continuous_id));
  if (kept.length !== lines) {
    const tmp = join(dir, `${RESULTS_FILE}.tmp`);
    await writeFile(tmp, kept.map(resultLine).join(""));
    await rename(tmp, join(dir, RESULTS_FILE));
  }
  return done;
}

export async function appendChainResults(dir: string, bugs: GradedBug[]): Promise<void> {
  await appendFile(join(dir, RESULTS_FILE), bugs.map(resultLine).join(""));
}

export async function appendError(dir: string, error: RunError): Promise<void> {
  await appendFile(join(dir, ERRORS_FILE), `${JSON.stringify(error)}\n`);
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_");

export function bugLogDir(dir: string, continuousId: string, order: number): string {
  return join(dir, "logs", safeName(continuousId), String(order));
}

/** Each bug's full test log and the patch the system submitted for it. */
export async function writeBugArtifacts(dir: string, a: BugArtifacts): Promise<void> {
  const d = bugLogDir(dir, a.bug.continuous_id, a.bug.order);
  await mkdir(d, { recursive: true });
  await Promise.all([writeFile(join(d, "test_output.txt"), a.log), writeFile(join(d, "model.patch"), a.modelPatch)]);
}

/** A finished evaluation directory as the scoring functions take it. */
export async function loadRunResults(dir: string): Promise<{ summary: RunSummary; bugs: GradedBug[] }> {
  const summary = await readSummary(dir);
  if (!summary) throw new Error(`${dir} is not an evaluation directory (no ${SUMMARY_FILE})`);
  return { summary, bugs: await readResults(dir) };
}
