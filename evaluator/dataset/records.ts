/**
 * Reading JSON-array or JSONL files record by record, with line numbers,
 * and turning zod issues into InputIssues that name the line and field.
 *
 * JSONL is read as bytes and split on newlines here (not with readline) so the
 * same pass can count bytes against a size limit and feed a hash: a file over
 * the limit is refused as soon as the limit is crossed, and a large file is
 * never held whole.
 */
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import type { z } from "zod";
import { LimitError, type InputIssue } from "@/core/errors";
import { formatBytes } from "@/core/format";

export type RawRecord = { line: number; value: unknown } | { line: number; error: string };

export type ReadOptions = {
  /** refuse a file larger than this (LimitError 413), detected while reading */
  maxBytes?: number;
  /** the form or API field the file came from, named in the LimitError */
  field?: string;
  /** sees every byte of the file once, in order (e.g. to hash it in the same pass) */
  onChunk?: (chunk: Buffer) => void;
};

/** `bug_fixes[1].order` from zod's ["bug_fixes", 1, "order"]. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}

export function zodIssues(err: z.ZodError, line: number, id?: string): InputIssue[] {
  return err.issues.map((issue) => ({ line, id, field: fieldPath(issue.path), message: issue.message }));
}

/** "12.5 MB" / "300 KB": limits in the units people set them in. */

export function tooLarge(maxBytes: number, field?: string): LimitError {
  return new LimitError(`the file is larger than the ${formatBytes(maxBytes)} limit`, 413, field);
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

const NEWLINE = 0x0a;

const UTF8 = new TextDecoder("utf-8", { fatal: true });
/**
 * Strict UTF-8, or null: a record is refused whole rather than stored with
 * U+FFFD where its bytes were (a patch that would no longer be what was sent).
 */
function strictText(bytes: Uint8Array): string | null {
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}
const NOT_UTF8 = "not valid UTF-8 text: refused rather than stored with replacement characters; send the file as UTF-8";

/** The file's lines as strings (without "\n" or "\r\n"; null for a line that is not UTF-8), counting bytes as they are read. */
async function* readLines(path: string, opts: ReadOptions): AsyncGenerator<string | null> {
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  let bytes = 0;
  let pending: Buffer[] = [];
  const text = (parts: Buffer[]): string | null => {
    const s = strictText(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    return s?.endsWith("\r") ? s.slice(0, -1) : s;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (opts.maxBytes !== undefined && bytes > opts.maxBytes) throw tooLarge(opts.maxBytes, opts.field);
      opts.onChunk?.(chunk);
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        pending.push(chunk.subarray(start, nl));
        yield text(pending);
        pending = [];
        start = nl + 1;
      }
      if (start < chunk.length) pending.push(chunk.subarray(start));
    }
    if (pending.length) yield text(pending);
  } finally {
    stream.destroy();
  }
}

/**
 * Yields each record with its 1-based line (JSONL) or record number (JSON array).
 * JSONL is streamed so a large predictions file is never held whole; a JSON
 * array has to be parsed whole, so its size is checked before it is read.
 */
export async function* readRecords(path: string, opts: ReadOptions = {}): AsyncGenerator<RawRecord> {
  if ((await firstNonSpaceChar(path)) === "[") {
    if (opts.maxBytes !== undefined && (await stat(path)).size > opts.maxBytes) throw tooLarge(opts.maxBytes, opts.field);
    const bytes = await readFile(path);
    opts.onChunk?.(bytes);
    yield* arrayRecords(bytes);
    return;
  }
  let n = 0;
  for await (const text of readLines(path, opts)) {
    n++;
    if (text === null) {
      yield { line: n, error: NOT_UTF8 };
      continue;
    }
    if (text.trim() === "") continue;
    try {
      yield { line: n, value: JSON.parse(text) };
    } catch (e) {
      yield { line: n, error: `malformed JSON: ${(e as Error).message}` };
    }
  }
}

const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE, COMMA, QUOTE, BACKSLASH] = [0x5b, 0x5d, 0x7b, 0x7d, 0x2c, 0x22, 0x5c];
const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/**
 * A JSON array's elements one at a time: each is cut out by
 * bracket depth and parsed alone, so a consumer that stops early (too many
 * problems) never pays for the rest, and no single parse builds the whole
 * array on the heap. Malformed structure is named by element number.
 */
export function* arrayRecords(bytes: Buffer): Generator<RawRecord> {
  let i = bytes.indexOf(OPEN_BRACKET) + 1;
  const skipSpace = () => {
    while (isSpace(bytes[i])) i++;
  };
  skipSpace();
  if (bytes[i] === CLOSE_BRACKET) return yield* trailing(bytes, i + 1, 0);
  for (let n = 1; ; n++) {
    skipSpace();
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < bytes.length; i++) {
      const b = bytes[i];
      if (inString) {
        if (b === BACKSLASH) i++;
        else if (b === QUOTE) inString = false;
      } else if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (depth === 0) break;
        depth--;
      } else if (b === COMMA && depth === 0) break;
    }
    if (i >= bytes.length) {
      yield { line: n, error: "malformed JSON array: it does not end with ]" };
      return;
    }
    const element = strictText(bytes.subarray(start, i));
    if (element === null) yield { line: n, error: `array element ${n} is ${NOT_UTF8}` };
    else {
      try {
        yield { line: n, value: JSON.parse(element) as unknown };
      } catch (e) {
        yield { line: n, error: `malformed JSON in array element ${n}: ${(e as Error).message}` };
      }
    }
    if (bytes[i] === CLOSE_BRACKET) return yield* trailing(bytes, i + 1, n);
    i++; // the comma
  }
}

function* trailing(bytes: Buffer, from: number, elements: number): Generator<RawRecord> {
  let i = from;
  while (isSpace(bytes[i])) i++;
  if (i < bytes.length) yield { line: elements + 1, error: "malformed JSON array: text after its closing ]" };
}

/** Names of fields a record carries beyond the known ones. */
export function unknownFields(value: unknown, known: Set<string>): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((k) => !known.has(k));
}
