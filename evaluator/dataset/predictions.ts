/** Loading a submission's predictions against a dataset (SPEC §2). */
import { createHash } from "node:crypto";
import { InputError, type InputIssue } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import { KNOWN_PREDICTION_FIELDS, predictionLineSchema, type PredictionLine } from "@/core/schemas/prediction";
import { formatBytes } from "@/core/format";
import { readRecords, unknownFields, zodIssues } from "./records";

export type Predictions = {
  path: string;
  sha256: string;
  /** model_name_or_path shared by every line, if the lines carry it */
  system: string | null;
  /** continuous_id → order → prediction */
  byChain: Map<string, Map<number, PredictionLine>>;
  warnings: string[];
  /**
   * The upload-checking thread's: `<continuous_id>\u0000<order>` → where a large model_patch was
   * staged in the database (lib/submissions/staged-texts.ts); that line's model_patch is then "".
   */
  stagedPatches?: Record<string, string>;
};

/**
 * Size limits for an upload. Absent means unlimited: the evaluator's own
 * commands run trusted local files; the portal passes CHAINSWE_MAX_UPLOAD_MB
 * and CHAINSWE_MAX_PATCH_KB (env.ts) through `predictionLimitsFromEnv`.
 */
export type PredictionLimits = {
  /** the whole file: over it is a LimitError (413), raised while reading */
  maxFileBytes?: number;
  /** one model_patch (UTF-8 bytes): over it is an issue naming the line and `model_patch` */
  maxPatchBytes?: number;
};

export function predictionLimitsFromEnv(e: { CHAINSWE_MAX_UPLOAD_MB: number; CHAINSWE_MAX_PATCH_KB: number }): Required<PredictionLimits> {
  return { maxFileBytes: e.CHAINSWE_MAX_UPLOAD_MB * 1024 * 1024, maxPatchBytes: e.CHAINSWE_MAX_PATCH_KB * 1024 };
}

/** Issues listed in full; past this, one more issue says how many were left out (a broken 10,000-line file stays readable). */
export const MAX_LISTED_ISSUES = 1000;

type Index = Map<string, Map<string, number>>; // chain → instance id → order

function indexChains(chains: Chain[]): Index {
  return new Map(
    chains.map((c) => [c.continuous_id, new Map(c.bug_fixes.map((b) => [b.swebench_instance_id, b.order]))]),
  );
}

/** Checks a parsed line against the dataset; returns the bug's order or an issue. */
function locate(line: number, p: PredictionLine, index: Index): number | InputIssue {
  const bugs = index.get(p.continuous_id);
  if (!bugs) return { line, field: "continuous_id", message: `unknown chain ${p.continuous_id}` };
  const order = bugs.get(p.swebench_instance_id);
  if (order === undefined) {
    return { line, field: "swebench_instance_id", message: `unknown instance ${p.swebench_instance_id} in chain ${p.continuous_id}` };
  }
  if (p.order !== undefined && p.order !== order) {
    return { line, field: "order", message: `is ${p.order} but the dataset puts ${p.swebench_instance_id} at ${order}` };
  }
  return order;
}

/** Why a model patch of `size` UTF-8 bytes is over the per-patch limit ("is 3 MB, over the 2 MB limit per patch"), or null. */
export function patchSizeOverLimit(size: number, maxPatchBytes: number | undefined): string | null {
  if (maxPatchBytes === undefined || size <= maxPatchBytes) return null;
  return `is ${formatBytes(size)}, over the ${formatBytes(maxPatchBytes)} limit per patch`;
}

/** As patchSizeOverLimit, for a patch's text. */
export function patchOverLimit(patch: string, maxPatchBytes: number | undefined): string | null {
  // a UTF-16 unit is 1 to 3 UTF-8 bytes: only count bytes when the length leaves it open
  if (maxPatchBytes === undefined || patch.length * 3 <= maxPatchBytes) return null;
  return patchSizeOverLimit(Buffer.byteLength(patch, "utf8"), maxPatchBytes);
}

/** A patch over the limit, checked on the raw value so a huge patch is never parsed as a diff. */
function oversizedPatch(line: number, value: unknown, maxPatchBytes: number | undefined): InputIssue | null {
  if (typeof value !== "object" || value === null) return null;
  const patch = (value as { model_patch?: unknown }).model_patch;
  const over = typeof patch === "string" ? patchOverLimit(patch, maxPatchBytes) : null;
  return over ? { line, field: "model_patch", message: over } : null;
}

/** Past this many problems the check stops reading: a hostile file of a million bad lines costs no more than this. */
export const MAX_CHECKED_ISSUES = 10 * MAX_LISTED_ISSUES;

/** Collects issues, listing the first MAX_LISTED_ISSUES and counting the rest. */
class IssueList {
  readonly listed: InputIssue[] = [];
  private omitted = 0;
  private firstOmittedLine = 0;
  push(...issues: InputIssue[]): void {
    for (const issue of issues) {
      if (this.listed.length < MAX_LISTED_ISSUES) this.listed.push(issue);
      else if (this.omitted++ === 0) this.firstOmittedLine = issue.line;
    }
  }
  private stoppedAt = 0;
  get any(): boolean {
    return this.listed.length > 0;
  }
  /** enough problems to refuse the file and to show the user: reading further only costs */
  get full(): boolean {
    return this.listed.length + this.omitted >= MAX_CHECKED_ISSUES;
  }
  stop(line: number): void {
    this.stoppedAt = line;
  }
  all(): InputIssue[] {
    const out = this.omitted ? [...this.listed, { line: this.firstOmittedLine, field: "", message: `${this.omitted} more problem(s) from this line on are not listed` }] : this.listed;
    return this.stoppedAt ? [...out, { line: this.stoppedAt, field: "", message: `checking stopped after ${MAX_CHECKED_ISSUES} problems; lines after this one were not checked` }] : out;
  }
}

/**
 * Reads and checks a predictions file in one streaming pass: every problem is
 * named by line and field (InputError), a file over `limits.maxFileBytes` is a
 * LimitError as soon as the limit is crossed, and the file is hashed as it is read.
 */
export async function loadPredictions(path: string, chains: Chain[], limits: PredictionLimits = {}): Promise<Predictions> {
  const index = indexChains(chains);
  const issues = new IssueList();
  const byChain = new Map<string, Map<number, PredictionLine>>();
  const firstLine = new Map<string, number>();
  const unknown = new Set<string>();
  const hash = createHash("sha256");
  let system: string | null = null;
  let systemLine = 0;
  for await (const rec of readRecords(path, { maxBytes: limits.maxFileBytes, field: "predictions", onChunk: (c) => hash.update(c) })) {
    if (issues.full) {
      issues.stop(rec.line);
      break;
    }
    if ("error" in rec) {
      issues.push({ line: rec.line, field: "", message: rec.error });
      continue;
    }
    const tooBig = oversizedPatch(rec.line, rec.value, limits.maxPatchBytes);
    if (tooBig) {
      issues.push(tooBig);
      continue;
    }
    const parsed = predictionLineSchema.safeParse(rec.value);
    if (!parsed.success) {
      issues.push(...zodIssues(parsed.error, rec.line));
      continue;
    }
    const p = parsed.data;
    const order = locate(rec.line, p, index);
    if (typeof order !== "number") {
      issues.push(order);
      continue;
    }
    const key = `${p.continuous_id}\u0000${p.swebench_instance_id}`;
    const prior = firstLine.get(key);
    if (prior !== undefined) {
      issues.push({ line: rec.line, field: "swebench_instance_id", message: `duplicate prediction for ${p.swebench_instance_id} (first on line ${prior})` });
      continue;
    }
    firstLine.set(key, rec.line);
    if (p.model_name_or_path !== undefined) {
      if (system === null) {
        system = p.model_name_or_path;
        systemLine = rec.line;
      } else if (system !== p.model_name_or_path) {
        issues.push({ line: rec.line, field: "model_name_or_path", message: `"${p.model_name_or_path}" differs from "${system}" on line ${systemLine}` });
      }
    }
    for (const f of unknownFields(rec.value, KNOWN_PREDICTION_FIELDS)) unknown.add(f);
    // once the file is known to be rejected, keep checking lines but stop holding patches
    if (issues.any) {
      byChain.clear();
      continue;
    }
    let bugs = byChain.get(p.continuous_id);
    if (!bugs) byChain.set(p.continuous_id, (bugs = new Map()));
    bugs.set(order, p);
  }
  if (issues.any) throw new InputError(path, issues.all());
  const warnings = unknown.size ? [`${path}: ignored unknown field(s): ${[...unknown].sort().join(", ")}`] : [];
  return { path, sha256: hash.digest("hex"), system, byChain, warnings };
}
