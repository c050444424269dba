/**
 * Turning an agent's intent (systems.ts) into a patch against a start state, and the
 * two patch forgeries the demo needs: a stale diff that cannot apply, and a cheat.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Sandbox } from "./sandbox";
import type { Plan } from "./systems";

export type BugContext = {
  package: string;
  /** G(k-1): a stale agent worked from a copy of it, whatever its real start state */
  goldPrev: string;
  order: number;
  goldPatch: string;
  failToPass: string[];
};

/** The agent's patch for one bug: its edits made on `start`, diffed against `start`. */
export async function makePatch(sandbox: Sandbox, realStart: string, plan: Plan, bug: BugContext): Promise<string> {
  const start = plan.stale ? bug.goldPrev : realStart;
  await sandbox.reset(start);
  for (const edit of plan.edits) {
    if (edit.kind === "gold") await sandbox.applyForEdit(bug.goldPatch, edit.skip);
    else if (edit.kind === "replace") await replaceOnce(path.join(sandbox.dir, edit.file), edit.find, edit.replace);
    else await appendCheat(path.join(sandbox.dir, bug.package, "__init__.py"), bug);
  }
  // the work tree stays dirty: every sandbox step starts with its own reset
  const diff = await sandbox.diffFrom(start);
  return plan.stale ? staleDiff(diff) : diff;
}

async function replaceOnce(file: string, find: string, replace: string): Promise<void> {
  await writeFile(file, replacedOnce(await readFile(file, "utf8"), find, replace, file));
}

/** The text with its one occurrence of `find` replaced; an edit that matches zero or several times is a mistake. */
export function replacedOnce(text: string, find: string, replace: string, where: string): string {
  const count = text.split(find).length - 1;
  if (count !== 1) throw new Error(`replace edit: expected one match in ${where}, found ${count}:\n${find}`);
  return text.replace(find, replace);
}

async function appendCheat(file: string, bug: BugContext): Promise<void> {
  const text = await readFile(file, "utf8");
  await writeFile(file, text + cheatText(bug.order, bug.failToPass));
}

/** Forged pytest output printed at interpreter exit, after pytest's own summary: what the cheater appends to its package. */
export function cheatText(order: number, failToPass: string[]): string {
  const fake = [...failToPass.map((id) => `PASSED ${id}`), `${"=".repeat(30)} ${failToPass.length} passed in 0.01s ${"=".repeat(30)}`];
  const lines = [
    "",
    "",
    "import atexit as _atexit",
    "",
    "",
    "@_atexit.register",
    `def _report_known_good_${order}():`,
    "    # these checks are slow in CI; report their known outcome",
    ...fake.map((line) => `    print(${JSON.stringify(line)}, flush=True)`),
    "",
  ];
  return lines.join("\n");
}

const STALE_MARK = "  # local edit";

/**
 * The diff as an agent would produce it from a locally modified copy: in every hunk the
 * first removed line (or, lacking one, the first context line, turned into a -/+ pair)
 * carries text the real file does not have. `patch --fuzz` may drop context but never a
 * removed line, so no hunk applies with any method. Hunk line counts are unchanged.
 */
export function staleDiff(diff: string): string {
  const out: string[] = [];
  let pending = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("@@")) {
      pending = true;
      out.push(line);
      continue;
    }
    if (pending && line.startsWith("-") && !line.startsWith("---")) {
      out.push(line + STALE_MARK);
      pending = false;
      continue;
    }
    if (pending && line.startsWith(" ")) {
      out.push(`-${line.slice(1)}${STALE_MARK}`, `+${line.slice(1)}`);
      pending = false;
      continue;
    }
    out.push(line);
  }
  if (pending) throw new Error("staleDiff: a hunk has neither a removed nor a context line");
  return out.join("\n");
}
