/**
 * One way for every `chainswe` command to check its options: a zod schema over the
 * parsed options (and positional arguments), run before the command does anything.
 * A bad value, a missing or unreadable file or a directory that is not what the option
 * needs is a `UsageError`: one line per problem naming the option or argument, which
 * main() prints without a stack and exits 2 for.
 */
import { accessSync, constants, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { InputError } from "@/core/errors";
import { modeSchema } from "@/core/schemas/prediction";

/** Bad command-line input. An InputError (exit 2) whose message is one line per problem. */
export class UsageError extends InputError {
  constructor(command: string, problems: { field: string; message: string }[]) {
    super(`chainswe ${command} options`, problems.map((p) => ({ line: 1, ...p })));
    this.name = "UsageError";
    this.message = problems.map((p) => `chainswe ${command}: ${p.field}: ${p.message}`).join("\n");
  }
}

/** `timeLimit` → `--time-limit`; a positional argument keeps its `<name>`. */
function optionName(key: string, positional: readonly string[]): string {
  return positional.includes(key) ? `<${key}>` : `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The options parsed by `schema`, or a UsageError naming every bad one. */
export function parseOptions<S extends z.ZodType>(command: string, schema: S, raw: unknown, positional: readonly string[] = []): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new UsageError(
    command,
    parsed.error.issues.map((i) => ({
      field: i.path.length ? optionName(String(i.path[0]), positional) : "options",
      message: i.code === "too_small" && i.origin === "string" ? "must not be empty" : i.message,
    })),
  );
}

/** What is wrong with `path` as something to read, or null. */
export function unreadable(path: string, kind: "file" | "directory"): string | null {
  try {
    const st = statSync(path);
    if (kind === "file" && st.isDirectory()) return `${path} is a directory, not a file`;
    if (kind === "directory" && !st.isDirectory()) return `${path} is not a directory`;
    accessSync(path, constants.R_OK);
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `${path} does not exist` : `cannot read ${path} (${code ?? (e as Error).message})`;
  }
}

const pathTo = (kind: "file" | "directory") =>
  z
    .string()
    .min(1)
    .superRefine((p, ctx) => {
      const problem = unreadable(p, kind);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

/** A file that exists and can be read. */
export const readableFile = pathTo("file");
/** A directory that exists and can be read. */
export const readableDir = pathTo("directory");
/** An evaluation directory (`chainswe evaluate --out`): it has a summary.json. */
export const runDir = z
  .string()
  .min(1)
  .superRefine((p, ctx) => {
    const problem =
      unreadable(p, "directory") ??
      (unreadable(join(p, "summary.json"), "file") && `${p} is not an evaluation directory (no summary.json; give a \`chainswe evaluate --out\` directory)`);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** An integer ≥ min written as digits (commander hands options over as text). */
export const intOption = (min = 1) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `expected a whole number ≥ ${min}`)
    .transform(Number)
    .refine((n) => n >= min, `expected a whole number ≥ ${min}`);

/** A number > 0 (seconds and the like). */
export const positiveOption = z
  .string()
  .trim()
  .min(1, "expected a number > 0")
  .transform(Number)
  .refine((n) => Number.isFinite(n) && n > 0, "expected a number > 0");

/** `a, b,,` → ["a", "b"]; absent → null. */
export const chainIdsOption = z
  .string()
  .optional()
  .transform((s) => (s ? s.split(",").map((x) => x.trim()).filter(Boolean) : null));

/** One of `values`; the message lists them. */
export const enumOption = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (i) => `expected ${values.join(" | ")}, not ${JSON.stringify(i.input)}` });

/** oracle | seq | seq_mem */
export const modeOption = enumOption(modeSchema.options as ["oracle", "seq", "seq_mem"]);
