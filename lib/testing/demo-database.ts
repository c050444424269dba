/**
 * The demo benchmark as the portal holds it once evaluated: a migrated SQLite
 * database with dataset version "demo", the demo team's submissions seeded
 * (`chainswe demo seed`) and every one of them evaluated in Docker by
 * `chainswe worker`, as a user would do it. The browser tests serve it and the
 * demo test reads its results. Evaluating it is minutes of Docker, so a test
 * run makes it once: scripts/test.sh runs this file to write it to the path
 * CHAINSWE_DEMO_DB names, and each user copies that file. Without the
 * variable, each user evaluates its own.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DEMO_VERSION = "demo";
const CLI = join(ROOT, "bin", "chainswe.mjs");

/** Runs the project's CLI against a database, as a user would; throws with its output on failure. */
export function chainswe(dbUrl: string, args: string[], input?: string): string {
  try {
    return execFileSync(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl },
      input,
      stdio: ["pipe", "pipe", "pipe"],
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`chainswe ${args.join(" ")} failed: ${err.message}\n${err.stdout ?? ""}${err.stderr ?? ""}`);
  }
}

/** A fresh migrated SQLite database in a temp dir with the demo dataset imported as version "demo". */
export function freshDatabase(name: string): { dir: string; url: string } {
  const dir = mkdtempSync(join(tmpdir(), `chainswe-e2e-${name}-`));
  const url = `file:${join(dir, "site.db")}`;
  chainswe(url, ["db", "migrate"]);
  chainswe(url, ["dataset", "import", join(ROOT, "demo", "dataset.jsonl"), "--version", DEMO_VERSION]);
  return { dir, url };
}

/** Seeds the demo's submissions into a database holding version "demo" and evaluates them all. */
function evaluateDemo(url: string): void {
  chainswe(url, ["demo", "images"]);
  chainswe(url, ["demo", "seed"]);
  // four chains at once on two cores: the evaluation is the first thing the browser tests wait for, and beside
  // the other tests' processes more runnable containers get it a larger share of the CPU
  chainswe(url, ["worker", "--until-idle", "--concurrency", "4"]);
}

/** The evaluated demo database, in a temp dir of its own: a copy of CHAINSWE_DEMO_DB's file when it names one, else evaluated here. */
export function evaluatedDemoDatabase(name: string): { dir: string; url: string } {
  const made = process.env.CHAINSWE_DEMO_DB;
  if (!made || !existsSync(made)) {
    const db = freshDatabase(name);
    evaluateDemo(db.url);
    return db;
  }
  const dir = mkdtempSync(join(tmpdir(), `chainswe-e2e-${name}-`));
  copyFileSync(made, join(dir, "site.db"));
  return { dir, url: `file:${join(dir, "site.db")}` };
}

// `tsx lib/testing/demo-database.ts OUT`: writes the evaluated demo database to OUT (scripts/test.sh)
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2];
  if (!out) throw new Error("usage: tsx lib/testing/demo-database.ts OUT.db");
  const db = freshDatabase("demo-db");
  evaluateDemo(db.url);
  // whole or absent: a user that finds the file finds it evaluated
  copyFileSync(join(db.dir, "site.db"), `${out}.partial`);
  renameSync(`${out}.partial`, out);
  process.stdout.write(`the evaluated demo database: ${out}\n`);
}
