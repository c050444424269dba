/**
 * `chainswe db migrate` and `chainswe dataset …` as a user runs them, on SQLite
 * files in a temp dir: through main() in this process (cli/in-process.ts), and
 * `db migrate` through the real bin/chainswe.mjs in a child process, to prove
 * that the command's output and exit code reach the shell.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainsweWith } from "./in-process";

const ROOT = new URL("../", import.meta.url).pathname;
const BIN = join(ROOT, "bin", "chainswe.mjs");
const DEMO = join(ROOT, "demo", "dataset.jsonl");

let dir: string;

/** Runs chainswe from the temp dir, so the relative DATABASE_URL lands there: in this process. */
function chainswe(database: string, ...args: string[]) {
  return chainsweWith({ cwd: dir, env: { DATABASE_URL: `file:./${database}` } }, ...args);
}

/** The same through the real bin/chainswe.mjs, in a child process. */
function chainsweBin(database: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: `file:./${database}` },
    encoding: "utf8",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-cli-db-"));
  const migrated = chainsweBin("data/cli.db", "db", "migrate");
  expect(migrated.stderr + migrated.stdout).toContain("successfully applied");
  expect(migrated.code).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("chainswe dataset import", () => {
  it("imports the demo dataset and prints its counts", async () => {
    const run = await chainswe("data/cli.db", "dataset", "import", DEMO, "--version", "v1");
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
    const run = await chainswe("data/cli.db", "dataset", "import", "bad.jsonl", "--version", "v2");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line 2 \([^)]+\), field repo:/);
    const again = await chainswe("data/cli.db", "dataset", "import", DEMO, "--version", "v2");
    expect(again.code).toBe(0); // v2 was never created
  });

  it("exits 2 when the version already exists", async () => {
    const run = await chainswe("data/cli.db", "dataset", "import", DEMO, "--version", "v1");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("chainswe: dataset version v1 already exists; import under a new version\n");
  });

  it("tells the user to migrate a database that has no tables", async () => {
    const run = await chainswe("empty.db", "dataset", "import", DEMO, "--version", "v1");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("run `chainswe db migrate` first");
  });
});

describe("chainswe dataset release", () => {
  it("releases a version from another, printing each change with why; a missing reason or bad notes exit 2 and store nothing", async () => {
    await writeFile(join(dir, "notes.json"), JSON.stringify({ "tablefmt-chain-1": "every row solves it" }));
    const run = await chainswe("data/cli.db", "dataset", "release", "v1.1", "--from", "v1", "--retire", "tablefmt-chain-1", "--notes", "notes.json");
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("released dataset v1.1 from v1: 4 chains, 13 bugs\nremoved\ttablefmt-chain-1\tevery row solves it\n");
    expect(run.code).toBe(0);
    const unexplained = await chainswe("data/cli.db", "dataset", "release", "v1.2", "--from", "v1", "--retire", "moneyx-chain-1", "--notes", "notes.json");
    expect(unexplained.code).toBe(2);
    expect(unexplained.stderr).toBe(
      "chainswe: release v1.2 from v1: chain moneyx-chain-1: say why it is removed (a reason in the notes); chain tablefmt-chain-1: a reason for a chain this release neither adds, changes nor retires\n",
    );
    await writeFile(join(dir, "bad-notes.json"), "[1]");
    const bad = await chainswe("data/cli.db", "dataset", "release", "v1.2", "--from", "v1", "--notes", "bad-notes.json");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chainswe dataset release: --notes: bad-notes\.json: .*expected \{"<chain id>"/);
    expect((await chainswe("data/cli.db", "dataset", "import", DEMO, "--version", "v1.2")).code).toBe(0); // v1.2 was never created
  });
});

describe("chainswe dataset held-out", () => {
  it("sets a version's held-out chains, keeping its other rules, and prints them", async () => {
    const imported = await chainswe("data/held.db", "db", "migrate");
    expect(imported.code).toBe(0);
    expect((await chainswe("data/held.db", "dataset", "import", DEMO, "--version", "v1")).code).toBe(0);
    const rules = join(dir, "rules.json");
    await writeFile(rules, JSON.stringify({ verified_min_runs: 2 }));
    expect((await chainswe("data/held.db", "dataset", "rules", "v1", rules)).code).toBe(0);
    const set = await chainswe("data/held.db", "dataset", "held-out", "v1", "--chains", "moneyx-chain-1", "inikit-chain-1");
    expect(set.stderr).toBe("");
    expect(set.stdout).toBe("dataset v1's held-out chains: moneyx-chain-1, inikit-chain-1\n");
    expect((await chainswe("data/held.db", "dataset", "held-out", "v1")).stdout).toBe("moneyx-chain-1\ninikit-chain-1\n");
    expect(JSON.parse((await chainswe("data/held.db", "dataset", "rules", "v1")).stdout)).toEqual({ verified_min_runs: 2, held_out: ["moneyx-chain-1", "inikit-chain-1"] });
  });

  it("exits 2 naming an unknown chain, and stores nothing", async () => {
    const run = await chainswe("data/held.db", "dataset", "held-out", "v1", "--chains", "moneyx-chain-1", "no-such-chain");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("chainswe: rules: held_out: no chain no-such-chain in this version\n");
    expect((await chainswe("data/held.db", "dataset", "held-out", "v1")).stdout).toBe("moneyx-chain-1\ninikit-chain-1\n");
  });

  it("holds chains out at import, and refuses an unknown one there with nothing imported", async () => {
    const bad = await chainswe("data/held.db", "dataset", "import", DEMO, "--version", "v9", "--held-out", "nope");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("chainswe: held_out: no chain nope in this version\n");
    expect((await chainswe("data/held.db", "dataset", "held-out", "v9")).stderr).toBe("chainswe: no dataset version v9\n");
    const good = await chainswe("data/held.db", "dataset", "import", DEMO, "--version", "v9", "--held-out", "tablefmt-chain-1");
    expect(good.code).toBe(0);
    expect((await chainswe("data/held.db", "dataset", "held-out", "v9")).stdout).toBe("tablefmt-chain-1\n");
  });

  it("--none makes every chain public again", async () => {
    expect((await chainswe("data/held.db", "dataset", "held-out", "v9", "--none")).stdout).toBe("dataset v9's held-out chains: none\n");
    expect((await chainswe("data/held.db", "dataset", "held-out", "v9")).stdout).toBe("\n");
  });
});
