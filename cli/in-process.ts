/**
 * For the CLI's tests: `chainswe …args` run in this process through main(),
 * as a user would type it, with what it writes caught. A child process per
 * case cost each test ~2 s of CPU (Node, tsx and the command's modules
 * loaded again); bin/chainswe.mjs itself is proven by a few real ones.
 */
import { Readable } from "node:stream";
import { vi } from "vitest";

/** How a case runs: its environment on top of this process's, its standard input and its directory. */
export type InProcess = { env?: Record<string, string | undefined>; input?: string; cwd?: string };

/** The environment (a case's, on top of this process's) the loaded modules were loaded under. */
let loadedFor = "{}";

/**
 * The CLI's entry, its modules loaded afresh when the case's environment is not
 * the one they were loaded under: a real `chainswe` process parses its
 * environment once (env.ts) and makes its database client once from it
 * (db/client.ts), so a case with another environment is another process.
 */
async function entry(environment: string): Promise<typeof import("./main").main> {
  if (environment !== loadedFor) {
    const held = globalThis as { chainsweDb?: { $disconnect(): Promise<void> } };
    await held.chainsweDb?.$disconnect().catch(() => undefined);
    delete held.chainsweDb;
    vi.resetModules();
    loadedFor = environment;
  }
  return (await import("./main")).main;
}

/** Runs `chainswe …args` in this process; its exit code (0 when none was set; reset after), stderr and stdout. */
export async function chainsweInProcess(...args: string[]) {
  return chainsweWith({}, ...args);
}

/**
 * Runs `chainswe …args` in this process with `how`'s environment, standard input and
 * directory. A case with an environment unstubs every stubbed variable after it
 * (vi.unstubAllEnvs), so it is for files that stub none of their own.
 */
export async function chainsweWith(how: InProcess, ...args: string[]) {
  const err: string[] = [];
  const out: string[] = [];
  for (const [name, value] of Object.entries(how.env ?? {})) vi.stubEnv(name, value);
  const cwd = process.cwd();
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => (err.push(String(s)), true));
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  const i = vi.spyOn(process, "stdin", "get").mockReturnValue(Readable.from([Buffer.from(how.input ?? "")]) as typeof process.stdin);
  try {
    if (how.cwd) process.chdir(how.cwd);
    const main = await entry(JSON.stringify(how.env ?? {}));
    await main(["node", "chainswe", ...args]);
  } finally {
    process.chdir(cwd);
    e.mockRestore();
    o.mockRestore();
    i.mockRestore();
    if (how.env) vi.unstubAllEnvs();
  }
  // a process that sets no exit code exits 0
  const code = process.exitCode ?? 0;
  process.exitCode = undefined;
  return { code, stderr: err.join(""), stdout: out.join("") };
}
