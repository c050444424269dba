/** Reading instance files (JSON array or JSONL) into normalized instances, all or nothing. */
import { readRecords, zodIssues } from "@/evaluator/dataset/records";
import { InputError, type InputIssue } from "@/core/errors";
import { parseInstance, sourceSchema, type Instance, type Source } from "./instances";

/** `SWE-Gym=path/file.jsonl` names the source; a bare path lets each record's shape say. */
export function parseInstanceFileArg(arg: string): { path: string; source?: Source } {
  const m = /^([A-Za-z-]+)=(.+)$/.exec(arg);
  if (!m) return { path: arg };
  const source = sourceSchema.safeParse(m[1]);
  if (!source.success) {
    throw new InputError("--instances", [{ line: 1, field: "source", message: `unknown source "${m[1]}" in ${arg}; one of ${sourceSchema.options.join(", ")}` }]);
  }
  return { path: m[2]!, source: source.data };
}

function idOf(value: unknown): string | undefined {
  const id = typeof value === "object" && value !== null ? (value as { instance_id?: unknown }).instance_id : undefined;
  return typeof id === "string" ? id : undefined;
}

/** Every instance of every file; throws one InputError per file naming each bad record and field. */
export async function loadInstances(args: string[]): Promise<Instance[]> {
  const out: Instance[] = [];
  const seen = new Map<string, string>();
  for (const arg of args) {
    const { path, source } = parseInstanceFileArg(arg);
    const issues: InputIssue[] = [];
    for await (const rec of readRecords(path)) {
      if ("error" in rec) {
        issues.push({ line: rec.line, field: "", message: rec.error });
        continue;
      }
      const parsed = parseInstance(rec.value, source);
      if (!parsed.ok) {
        issues.push(...zodIssues(parsed.error, rec.line, idOf(rec.value)));
        continue;
      }
      const { instance } = parsed;
      const where = `${path}:${rec.line}`;
      const prior = seen.get(instance.instance_id);
      if (prior) issues.push({ line: rec.line, id: instance.instance_id, field: "instance_id", message: `duplicate instance (first at ${prior})` });
      seen.set(instance.instance_id, where);
      out.push(instance);
    }
    if (issues.length) throw new InputError(path, issues);
  }
  return out;
}
