/** Writing mining outputs: JSONL, one record a line, replaced whole so a reader never sees half a file. */
import { rename, writeFile } from "node:fs/promises";

export async function writeJsonl(path: string, rows: unknown[]): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, rows.map((r) => JSON.stringify(r) + "\n").join(""));
  await rename(tmp, path);
}

/** `out/candidates.jsonl` → `out/candidates.<what>.jsonl`: where a step's side report goes. */
export function besideOutput(out: string, what: string): string {
  return out.replace(/(\.jsonl?)?$/, `.${what}.jsonl`);
}
