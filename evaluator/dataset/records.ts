/**
 * Reading JSON-array or JSONL files record by record, with line numbers,
 * and turning zod issues into InputIssues that name the line and field.
 */
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { z } from "zod";
import type { InputIssue } from "@/lib/errors";

export type RawRecord = { line: number; value: unknown } | { line: number; error: string };

/** `bug_fixes[1].order` from zod's ["bug_fixes", 1, "order"]. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}

export function zodIssues(err: z.ZodError, line: number, id?: string): InputIssue[] {
  return err.issues.map((issue) => ({ line, id, field: fieldPath(issue.path), message: issue.message }));
}

async function firstNonSpaceChar(path: string): Promise<string | null> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 4096 });
  try {
    for await (const chunk of stream) {
      const m = /\S/.exec(chunk as string);
      if (m) return m[0];
    }
    return null;
  } finally {
    stream.destroy();
  }
}

/**
 * Yields each record with its 1-based line (JSONL) or record number (JSON array).
 * JSONL is streamed so a large predictions file is never held whole.
 */
export async function* readRecords(path: string): AsyncGenerator<RawRecord> {
  if ((await firstNonSpaceChar(path)) === "[") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(path, "utf8"));
    } catch (e) {
      yield { line: 1, error: `malformed JSON array: ${(e as Error).message}` };
      return;
    }
    if (!Array.isArray(parsed)) {
      yield { line: 1, error: "expected a JSON array of records" };
      return;
    }
    for (let i = 0; i < parsed.length; i++) yield { line: i + 1, value: parsed[i] };
    return;
  }
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n++;
    if (text.trim() === "") continue;
    try {
      yield { line: n, value: JSON.parse(text) };
    } catch (e) {
      yield { line: n, error: `malformed JSON: ${(e as Error).message}` };
    }
  }
}

/** Names of fields a record carries beyond the known ones. */
export function unknownFields(value: unknown, known: Set<string>): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !known.has(k));
}
