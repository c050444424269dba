/** Loading and validating a ChainSWE dataset version (SPEC §1). */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { InputError, type InputIssue } from "@/core/errors";
import { chainSchema, KNOWN_BUG_FIELDS, KNOWN_CHAIN_FIELDS, type Chain } from "@/core/schemas/dataset";
import { readRecords, unknownFields, zodIssues } from "./records";

export type Dataset = {
  path: string;
  sha256: string;
  chains: Chain[];
  /** the line (JSONL) or array element (a JSON array, as readRecords numbers them) each chain came from */
  lines?: number[];
  warnings: string[];
};

export async function sha256File(path: string): Promise<string> {
  return createHash("sha256").update(await readFile(path)).digest("hex");
}

function idOf(value: unknown): string | undefined {
  if (typeof value === "object" && value !== null && "continuous_id" in value) {
    const id = (value as { continuous_id: unknown }).continuous_id;
    return typeof id === "string" ? id : undefined;
  }
  return undefined;
}

function warnUnknown(chain: Chain, raw: unknown, line: number, warnings: string[]): void {
  const extra = unknownFields(raw, KNOWN_CHAIN_FIELDS);
  if (extra.length) warnings.push(`line ${line} (${chain.continuous_id}): unknown chain field(s) kept: ${extra.join(", ")}`);
  const bugs = (raw as { bug_fixes: unknown[] }).bug_fixes;
  bugs.forEach((b, i) => {
    const extraBug = unknownFields(b, KNOWN_BUG_FIELDS);
    if (extraBug.length) {
      warnings.push(`line ${line} (${chain.continuous_id}), bug_fixes[${i}]: unknown field(s) kept: ${extraBug.join(", ")}`);
    }
  });
}

export type LoadOptions = {
  /**
   * Let one instance belong to several chains: mining candidates are every window of
   * a run, so they overlap; a dataset version never does.
   */
  sharedInstances?: boolean;
};

/** Parses every record; throws InputError listing every problem, so nothing half-loads. */
export async function loadDataset(path: string, opts: LoadOptions = {}): Promise<Dataset> {
  const issues: InputIssue[] = [];
  const warnings: string[] = [];
  const chains: Chain[] = [];
  const lines: number[] = [];
  const chainLine = new Map<string, number>();
  const instanceChain = new Map<string, string>();
  for await (const rec of readRecords(path)) {
    if ("error" in rec) {
      issues.push({ line: rec.line, field: "", message: rec.error });
      continue;
    }
    const id = idOf(rec.value);
    const parsed = chainSchema.safeParse(rec.value);
    if (!parsed.success) {
      issues.push(...zodIssues(parsed.error, rec.line, id));
      continue;
    }
    const chain = parsed.data;
    const prior = chainLine.get(chain.continuous_id);
    if (prior !== undefined) {
      issues.push({ line: rec.line, id, field: "continuous_id", message: `duplicate chain id (first on line ${prior})` });
      continue;
    }
    chainLine.set(chain.continuous_id, rec.line);
    chain.bug_fixes.forEach((bug, i) => {
      const other = instanceChain.get(bug.swebench_instance_id);
      if (other !== undefined && other !== chain.continuous_id && !opts.sharedInstances) {
        issues.push({
          line: rec.line,
          id,
          field: `bug_fixes[${i}].swebench_instance_id`,
          message: `instance ${bug.swebench_instance_id} already belongs to chain ${other}`,
        });
      }
      instanceChain.set(bug.swebench_instance_id, chain.continuous_id);
    });
    warnUnknown(chain, rec.value, rec.line, warnings);
    chains.push(chain);
    lines.push(rec.line);
  }
  if (chains.length === 0 && issues.length === 0) issues.push({ line: 1, field: "", message: "no chains in file" });
  if (issues.length) throw new InputError(path, issues);
  return { path, sha256: await sha256File(path), chains, lines, warnings };
}
