/** Loading a submission's predictions against a dataset (SPEC §2). */
import { InputError, type InputIssue } from "@/lib/errors";
import type { Chain } from "@/lib/schemas/dataset";
import { KNOWN_PREDICTION_FIELDS, predictionLineSchema, type PredictionLine } from "@/lib/schemas/prediction";
import { sha256File } from "./dataset";
import { readRecords, unknownFields, zodIssues } from "./records";

export type Predictions = {
  path: string;
  sha256: string;
  /** model_name_or_path shared by every line, if the lines carry it */
  system: string | null;
  /** continuous_id → order → prediction */
  byChain: Map<string, Map<number, PredictionLine>>;
  warnings: string[];
};

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

export async function loadPredictions(path: string, chains: Chain[]): Promise<Predictions> {
  const index = indexChains(chains);
  const issues: InputIssue[] = [];
  const byChain = new Map<string, Map<number, PredictionLine>>();
  const firstLine = new Map<string, number>();
  const unknown = new Set<string>();
  let system: string | null = null;
  let systemLine = 0;
  for await (const rec of readRecords(path)) {
    if ("error" in rec) {
      issues.push({ line: rec.line, field: "", message: rec.error });
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
    let bugs = byChain.get(p.continuous_id);
    if (!bugs) byChain.set(p.continuous_id, (bugs = new Map()));
    bugs.set(order, p);
  }
  if (issues.length) throw new InputError(path, issues);
  const warnings = unknown.size ? [`${path}: ignored unknown field(s): ${[...unknown].sort().join(", ")}`] : [];
  return { path, sha256: await sha256File(path), system, byChain, warnings };
}
