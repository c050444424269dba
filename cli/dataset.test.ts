/**
 * `chainswe db migrate` and `chainswe dataset import` as a user runs them: the
 * real bin/chainswe.mjs in a child process, on a SQLite file in a temp dir.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = new URL("../", import.meta.url).pathname;
const BIN = join(ROOT, "bin", "chainswe.mjs");
const DEMO = join(ROOT, "demo", "dataset.jsonl");

let dir: string;

/** Runs chainswe from the temp dir, so the relative DATABASE_URL lands there. */
function chainswe(database: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: `file:./${database}` },
    encoding: "utf8",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-cli-db-"));
  const migrated = chainswe("data/cli.db", "db", "migrate");
  expect(migrated.stderr + migrated.stdout).toContain("successfully applied");
  expect(migrated.code).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("chainswe dataset import", () => {
  it("imports the demo dataset and prints its counts", () => {
    const run = chainswe("data/cli.db", "dataset", "import", DEMO, "--version", "v1");
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("imported dataset v1: 5 chains, 16 bugs, 5 repos\n");
    expect(run.code).toBe(0);
  });

  it("exits 2 naming the line and field of a bad record, and imports nothing", async () => {
    const lines = (await readFile(DEMO, "utf8")).trim().split("\n");
    const bad = JSON.parse(lines[1]!) as { repo: unknown };
    bad.repo = 42;
    lines[1] = JSON.stringify(bad);
    await writeFile(join(dir, "bad.jsonl"), lines.join("\n") + "\n");
    const run = chainswe("data/cli.db", "dataset", "import", "bad.jsonl", "--version", "v2");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line 2 \([^)]+\), field repo:/);
    const again = chainswe("data/cli.db", "dataset", "import", DEMO, "--version", "v2");
    expect(again.code).toBe(0); // v2 was never created
  });

  it("exits 2 when the version already exists", () => {
    const run = chainswe("data/cli.db", "dataset", "import", DEMO, "--version", "v1");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("chainswe: dataset version v1 already exists; import under a new version\n");
  });

  it("tells the user to migrate a database that has no tables", () => {
    const run = chainswe("empty.db", "dataset", "import", DEMO, "--version", "v1");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("run `chainswe db migrate` first");
  });
});
