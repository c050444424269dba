/**
 * Every command checks its options before it does anything: each is driven here with
 * bad values through `main()` as a user would type them. Expected failures are one
 * line per problem naming the option or argument, exit code 2, no stack trace.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InputError } from "@/core/errors";
import { describeFailure } from "./failure";
import { intOption, parseOptions, positiveOption, UsageError } from "./options";
import { z } from "zod";
import { chainsweInProcess } from "./in-process";

const DEMO = new URL("../demo/dataset.jsonl", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "chainswe-options-"));
const notARun = join(dir, "not-a-run");
const file = join(dir, "preds.jsonl");
writeFileSync(file, "");

const chainswe = chainsweInProcess;

/** Exit 2; one line per expected option, each naming it; nothing else, no stack. */
async function refuses(args: string[], command: string, options: string[]) {
  const run = await chainswe(...args);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).not.toMatch(/\n\s+at /);
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines.map((l) => l.split(": ")[1])).toEqual(options);
  for (const l of lines) expect(l.startsWith(`chainswe ${command}: `)).toBe(true);
  return lines;
}

afterEach(() => {
  process.exitCode = undefined;
});

describe("bad options, per command", () => {
  it("evaluate: the issue's examples (a mode that does not exist, a missing dataset, a concurrency that is not a number)", async () => {
    const lines = await refuses(
      ["evaluate", "--dataset", join(dir, "missing.jsonl"), "--predictions", dir, "--mode", "sideways", "--out", join(dir, "o"), "--concurrency", "abc", "--timeout", "-1"],
      "evaluate",
      ["--dataset", "--predictions", "--mode", "--concurrency", "--timeout"],
    );
    expect(lines[0]).toBe(`chainswe evaluate: --dataset: ${join(dir, "missing.jsonl")} does not exist`);
    expect(lines[1]).toMatch(/is a directory, not a file$/);
    expect(lines[2]).toBe('chainswe evaluate: --mode: expected oracle | seq | seq_mem, not "sideways"');
  });

  it("report: a directory that is not an evaluation directory, a bad --positions and --seed", async () => {
    const lines = await refuses(["report", dir, "--positions", "some", "--seed", "x"], "report", ["<dirs>", "--positions", "--seed"]);
    expect(lines[0]).toMatch(/not an evaluation directory/);
    await refuses(["report", notARun], "report", ["<dirs>"]);
  });

  it("report: two directories of one system and mode are one line naming them, exit 2, no stack", async () => {
    const summary = {
      system: "twice",
      mode: "seq",
      dataset: { path: "d.jsonl", sha256: "0", chains: [{ continuous_id: "c", length: 2 }] },
      predictions: { path: "p.jsonl", sha256: "0" },
      chains_selected: null,
      started_at: "2026-12-05T00:00:00Z",
      finished_at: "2026-12-05T00:01:00Z",
      chains_graded: 0,
      chains_failed: 0,
      bugs_graded: 0,
      bugs_resolved: 0,
      wall_seconds: 60,
      test_seconds: 0,
      limits: { memory_bytes: 1, nano_cpus: 1, pids: 1, test_timeout_s: 1 },
    };
    const runs = ["first", "second"].map((name) => {
      const run = join(dir, name);
      mkdirSync(run);
      writeFileSync(join(run, "summary.json"), JSON.stringify(summary));
      writeFileSync(join(run, "results.jsonl"), "");
      return run;
    });
    const [line] = await refuses(["report", ...runs], "report", ["<dirs>"]);
    expect(line).toBe("chainswe report: <dirs>: two seq runs for system twice: give one run per system and mode");
  });

  it("bundle and verify: a directory that is not a run, a missing dataset and bundle; a file that is not a bundle", async () => {
    await refuses(["bundle", dir, "--out", join(dir, "b.tar.gz"), "--dataset", join(dir, "missing.jsonl")], "bundle", ["<dir>", "--dataset"]);
    await refuses(["verify", join(dir, "missing.tar.gz")], "verify", ["<bundle>"]);
    writeFileSync(join(dir, "not-a-bundle.txt"), "hello\n");
    const notABundle = await chainswe("verify", join(dir, "not-a-bundle.txt"));
    expect(notABundle.code).not.toBe(0);
    expect(notABundle.stderr).toMatch(/is not a bundle/);
    expect(notABundle.stderr).not.toMatch(/\n\s+at /);
  });

  it("validate: a missing dataset and a zero concurrency", async () => {
    await refuses(["validate", notARun, "--concurrency", "0"], "validate", ["<dataset>", "--concurrency"]);
  });

  it("rollout: mode, agent, time limit and an existing --out, all at once", async () => {
    await refuses(
      ["rollout", "--dataset", DEMO, "--mode", "seqq", "--agent", " ", "--out", DEMO, "--time-limit", "0", "--concurrency", "1.5"],
      "rollout",
      ["--mode", "--agent", "--out", "--time-limit", "--concurrency"],
    );
  });

  it("mine: a missing instance file, a repos path that is not a directory, a short --max-length", async () => {
    await refuses(
      ["mine", "--instances", join(dir, "gone.jsonl"), "--repos", file, "--out", join(dir, "c.jsonl"), "--max-length", "1"],
      "mine",
      ["--instances", "--repos", "--max-length"],
    );
  });

  it("select: missing candidates and an --oracle that is not a directory", async () => {
    await refuses(["select", notARun, "--out", join(dir, "v.jsonl"), "--oracle", file], "select", ["<candidates>", "--oracle"]);
  });

  it("demo run and demo rollout: unknown systems and modes, bad concurrency", async () => {
    await refuses(["demo", "run", "--systems", "nobody", "--concurrency", "none"], "demo run", ["--concurrency", "--systems"]);
    await refuses(["demo", "rollout", "--modes", "seq,up", "--systems", ","], "demo rollout", ["--systems", "--modes"]);
  });

  it("dataset import: a file that is not there", async () => {
    await refuses(["dataset", "import", notARun, "--version", " "], "dataset import", ["<file>", "--version"]);
  });

  it("submit: an unreadable file, a server that is not a URL, a bad mode, --meta and --poll-seconds", async () => {
    await refuses(
      ["submit", notARun, "--server", "portal", "--token", "t", "--system", "a/b", "--mode", "fast", "--dataset-version", "v1", "--meta", "novalue", "--poll-seconds", "0"],
      "submit",
      ["<predictions>", "--server", "--mode", "--meta", "--poll-seconds"],
    );
  });

  it("submit-local: an unreadable file and a bad mode", async () => {
    await refuses(["submit-local", notARun, "--dataset-version", "v1", "--mode", "fast"], "submit-local", ["<predictions>", "--mode"]);
  });

  it("worker and dispatcher: numbers that are not numbers, a Redis URL that is not one", async () => {
    await refuses(
      ["worker", "--concurrency", "abc", "--lease-seconds", "0", "--poll-seconds", "", "--max-attempts", "2.5", "--redis", "http://x"],
      "worker",
      ["--redis", "--concurrency", "--lease-seconds", "--poll-seconds", "--max-attempts"],
    );
    await refuses(["dispatcher", "--max-in-flight", "0", "--poll-seconds", "soon"], "dispatcher", ["--poll-seconds", "--max-in-flight"]);
  });

  it("admin create and aggregates refresh: an email that is not one, an empty submission id", async () => {
    await refuses(["admin", "create", "ann", "--email", "ann-at-example", "--password-stdin"], "admin create", ["--email"]);
    await refuses(["aggregates", "refresh", "--submission", " "], "aggregates refresh", ["--submission"]);
  });

  it("commander's own usage errors (missing option, unknown option, bad choice) exit 2 too, in one line naming the command", async () => {
    for (const args of [["evaluate", "--mode", "seq"], ["db", "migrate", "--force"], ["demo", "images", "--fast"], ["admin", "grant", "ann", "king"]]) {
      const run = await chainswe(...args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^chainswe ${args[0]}[^\n]*: [^\n]+\n$`));
    }
  });
});

describe("parseOptions", () => {
  const schema = z.object({ dataset: z.string().min(1), timeLimit: positiveOption, concurrency: intOption(1) });

  it("returns parsed values", () => {
    expect(parseOptions("x", schema, { dataset: "d", timeLimit: "1.5", concurrency: "3" })).toEqual({ dataset: "d", timeLimit: 1.5, concurrency: 3 });
  });

  it("names options in --kebab-case and positional arguments in <brackets>, one line each", () => {
    let error: unknown;
    try {
      parseOptions("x", schema, { dataset: "", timeLimit: "soon", concurrency: "0" }, ["dataset"]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      ["chainswe x: <dataset>: must not be empty", "chainswe x: --time-limit: expected a number > 0", "chainswe x: --concurrency: expected a whole number ≥ 1"].join("\n"),
    );
  });
});

describe("describeFailure", () => {
  const enoent = Object.assign(new Error("ENOENT: no such file or directory, open 'd.jsonl'"), { code: "ENOENT", path: "d.jsonl" });

  it("tells expected failures in one line: a path that cannot be read exits 2", () => {
    expect(describeFailure(enoent, false)).toEqual({ text: "chainswe: cannot read d.jsonl: no such file or directory", exitCode: 2 });
  });

  it("keeps the stack of internal errors, and of every error with --debug", () => {
    const internal = describeFailure(new TypeError("x is undefined"), false);
    expect(internal.exitCode).toBe(1);
    expect(internal.text).toMatch(/TypeError: x is undefined\n\s+at /);
    expect(describeFailure(enoent, true).text).toMatch(/\n\s+at /);
  });
});
