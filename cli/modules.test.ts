/**
 * The engine's commands stand alone: `chainswe evaluate`, `report`, `regrade`,
 * `verify`, `validate` and `mine` load the command line, the engine (evaluator/),
 * the core and env.ts, and nothing of the portal: no Prisma client, no Next.js,
 * nothing of lib/, db/, jobs/, app/ or components/. Each runs in a process of
 * its own that records every module it loads (tests/fixtures/modules/record.mjs);
 * `dataset` (which migrates the portal's database) is the control that the
 * record sees the portal's modules when a command loads them.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "chainswe.mjs");
const RECORD = join(ROOT, "tests", "fixtures", "modules", "record.mjs");

/** The modules `chainswe [command] --help` loads: the project's files (relative paths) and the packages from node_modules. */
function loaded(command: string | null): { files: string[]; packages: string[] } {
  const log = join(mkdtempSync(join(tmpdir(), "chainswe-modules-")), "modules.txt");
  const run = spawnSync(process.execPath, ["--import", RECORD, BIN, ...(command ? [command] : []), "--help"], {
    cwd: ROOT,
    env: { ...process.env, CHAINSWE_MODULE_LOG: log },
    encoding: "utf8",
  });
  expect(run.status, run.stderr).toBe(0);
  const paths = readFileSync(log, "utf8")
    .split("\n")
    .filter((u) => u.startsWith("file:"))
    .map((u) => relative(ROOT, fileURLToPath(u.replace(/\?.*$/, ""))));
  const inModules = (p: string) => p.split("/").includes("node_modules");
  const packages = paths.filter(inModules).map((p) => {
    const after = p.slice(p.lastIndexOf("node_modules/") + "node_modules/".length).split("/");
    return after[0]!.startsWith("@") ? `${after[0]}/${after[1]}` : after[0]!;
  });
  return { files: [...new Set(paths.filter((p) => !inModules(p)))].sort(), packages: [...new Set(packages)].sort() };
}

/** What an engine command may load of the project. */
const ENGINE_FILE = /^(cli\/[\w-]+\.ts|bin\/chainswe\.mjs|core\/.+|evaluator\/.+|env\.ts|package\.json|tsconfig\.json)$/;
const PORTAL_PACKAGES = ["@prisma/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", ".prisma", "prisma", "next", "next-auth", "react", "react-dom", "bullmq", "ioredis", "pg", "better-sqlite3"];

describe("the engine's commands load nothing of the portal", () => {
  it.each(["evaluate", "report", "regrade", "verify", "validate", "mine"])("chainswe %s", (command) => {
    const { files, packages } = loaded(command);
    // the command's own module was loaded and recorded
    expect(files).toContain(`cli/${command === "verify" ? "bundle" : command === "mine" ? "mine" : command}.ts`);
    expect(files.filter((f) => f.startsWith("evaluator/")).length).toBeGreaterThan(0);
    expect(files.filter((f) => !ENGINE_FILE.test(f))).toEqual([]);
    expect(packages.filter((p) => PORTAL_PACKAGES.includes(p))).toEqual([]);
  });

  it("chainswe --help loads no command's module: cli/main.ts and commander only", () => {
    const { files, packages } = loaded(null);
    expect(files.filter((f) => f.startsWith("cli/"))).toEqual(["cli/main.ts"]);
    expect(files.filter((f) => f.startsWith("evaluator/"))).toEqual(["evaluator/sandbox/interrupt.ts"]);
    // tsx runs the TypeScript; no Docker client, no zod
    expect(packages.filter((p) => !["tsx", "esbuild"].includes(p))).toEqual(["commander"]);
  });

  it("the record sees the portal's modules when a command loads them (chainswe dataset)", () => {
    const { files } = loaded("dataset");
    expect(files).toContain("db/migrate.ts");
  });
});
