/**
 * Every `chainswe` error is one line that names the thing: a usage mistake names the
 * command and the option, argument or word (an unknown option before a missing one),
 * exit 2; a server that does not answer (the portal, Redis, the database) is named
 * with its address and the cause, exit 1; no stack, no help text, nothing on stdout.
 */
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { isNetworkError, networkCause, redactUrl, UnreachableError } from "@/core/errors";
import { chainsweProgram } from "./main";
import { chainsweInProcess, chainsweWith } from "./in-process";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEMO = join(ROOT, "demo", "dataset.jsonl");

const chainswe = chainsweInProcess;

/** One line on stderr, nothing on stdout, the exit code; the line. */
function oneLine(run: { code: number | string | undefined | null; stderr: string; stdout: string }, code: number): string {
  expect(run.code, run.stderr).toBe(code);
  expect(run.stdout).toBe("");
  expect(run.stderr.endsWith("\n")).toBe(true);
  expect(run.stderr.trimEnd().split("\n"), run.stderr).toHaveLength(1);
  return run.stderr.trimEnd();
}

/** Every command that runs something (`demo run`, not `demo`), as its words. */
function leaves(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((c) => (c.commands.length ? leaves(c, [...path, c.name()]) : [[...path, c.name()]]));
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let port: number;
beforeAll(async () => {
  port = await closedPort();
});

afterEach(() => {
  process.exitCode = undefined;
});

describe("usage errors: one line naming the command and the thing, exit 2", () => {
  it("an unknown option, on every command, is named before any required option it lacks", async () => {
    const commands = leaves(await chainsweProgram(["node", "chainswe"]));
    expect(commands.length).toBeGreaterThan(20);
    for (const words of commands) {
      const line = oneLine(await chainswe(...words, "--frobnicate"), 2);
      expect(line).toBe(`chainswe ${words.join(" ")}: unknown option '--frobnicate' (see chainswe ${words.join(" ")} --help)`);
    }
  });

  it("the issue's example: submit with an unknown option and none of its required ones", async () => {
    expect(oneLine(await chainswe("submit", "--frobnicate", DEMO), 2)).toBe("chainswe submit: unknown option '--frobnicate' (see chainswe submit --help)");
  });

  it("a missing option, a missing argument, a bad choice and an unknown command", async () => {
    expect(oneLine(await chainswe("evaluate", "--mode", "seq"), 2)).toBe("chainswe evaluate: required option '--dataset <file>' not specified (see chainswe evaluate --help)");
    expect(oneLine(await chainswe("verify"), 2)).toBe("chainswe verify: missing required argument 'bundle' (see chainswe verify --help)");
    expect(oneLine(await chainswe("admin", "grant", "ann", "king"), 2)).toMatch(/^chainswe admin grant: command-argument value 'king' is invalid for argument 'role'\. Allowed choices are reviewer, site_admin\. \(see chainswe admin grant --help\)$/);
    expect(oneLine(await chainswe("frobnicate"), 2)).toBe("chainswe: unknown command 'frobnicate' (see chainswe --help)");
  });

  it("--help still prints the help, exit 0", async () => {
    const run = await chainswe("submit", "--help");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: chainswe submit \[options\] <predictions>/);
  });
});

describe("a server that does not answer: named with its address and the cause, exit 1", () => {
  it("submit: the portal's URL and why (refused, unknown host)", async () => {
    const args = ["--token", "t", "--system", "a/b", "--mode", "seq", "--dataset-version", "v1"];
    expect(oneLine(await chainswe("submit", DEMO, "--server", `http://127.0.0.1:${port}/`, ...args), 1)).toBe(
      `chainswe: cannot reach the portal at http://127.0.0.1:${port}/api/v1/submissions: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(oneLine(await chainswe("submit", DEMO, "--server", "http://portal.invalid", ...args), 1)).toMatch(
      /^chainswe: cannot reach the portal at http:\/\/portal\.invalid\/api\/v1\/submissions: getaddrinfo (ENOTFOUND|EAI_AGAIN) portal\.invalid$/,
    );
  });

  it("worker --redis and dispatcher --redis: Redis's URL (password hidden) and why, at once instead of retrying forever", async () => {
    expect(oneLine(await chainswe("worker", "--redis", `redis://ann:secret@127.0.0.1:${port}`), 1)).toBe(
      `chainswe: cannot reach Redis at redis://ann:***@127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    expect(oneLine(await chainswe("dispatcher", "--redis", `redis://127.0.0.1:${port}`), 1)).toBe(
      `chainswe: cannot reach Redis at redis://127.0.0.1:${port}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  // in this process, its modules loaded under this environment (cli/in-process.ts); the database client is made from DATABASE_URL
  it.each([
    ["admin", "grant", "ann", "reviewer"],
    ["db", "migrate"],
    ["dataset", "import", DEMO, "--version", "v1"],
    ["dataset", "rules", "v1"],
    ["aggregates", "refresh"],
    ["cleanup"],
    ["submit-local", DEMO, "--dataset-version", "v1", "--mode", "seq", "--system", "s", "--team", "t"],
    ["worker", "--until-idle"],
    ["dispatcher"],
  ])("the database, for chainswe %s …", async (...args) => {
    const run = await chainsweWith(
      { env: { DATABASE_URL: `postgresql://root:secret@127.0.0.1:${port}/chainswe`, REDIS_URL: "redis://127.0.0.1:6379", CHAINSWE_QUEUE: "embedded" } },
      ...args,
    );
    const line = oneLine(run, 1);
    expect(line).toMatch(new RegExp(`^chainswe: cannot reach the database at postgresql://root:\\*\\*\\*@127\\.0\\.0\\.1:${port}/chainswe: `));
    expect(line).toContain(`127.0.0.1:${port}`);
  });
});

describe("networkCause, isNetworkError, redactUrl", () => {
  const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" });

  it("finds the cause fetch hides and the first of several addresses", () => {
    expect(networkCause(new TypeError("fetch failed", { cause: refused }))).toBe("connect ECONNREFUSED 127.0.0.1:1");
    expect(networkCause(new TypeError("fetch failed", { cause: Object.assign(new AggregateError([refused], ""), { code: "ECONNREFUSED" }) }))).toBe("connect ECONNREFUSED 127.0.0.1:1");
    expect(new UnreachableError("the portal", "http://x/", refused).message).toBe("cannot reach the portal at http://x/: connect ECONNREFUSED 127.0.0.1:1");
  });

  it("tells a connection that failed from other errors", () => {
    expect(isNetworkError(new TypeError("fetch failed", { cause: refused }))).toBe(true);
    expect(isNetworkError(new Error("relation does not exist"))).toBe(false);
  });

  it("hides passwords and tokens", () => {
    expect(redactUrl("postgresql://root:pw@db:5432/x?sslmode=require&password=p")).toBe("postgresql://root:***@db:5432/x?sslmode=require&password=***");
    expect(redactUrl("redis://127.0.0.1:6379")).toBe("redis://127.0.0.1:6379");
  });
});
