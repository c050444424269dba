/**
 * SWE-bench-family instance files made from the demo benchmark, for mining tests:
 * one instance per demo bug, in each source's own record format. Bug k's base commit
 * is bug k-1's fix commit (demo/README.md), and the git clones come from the demo's
 * deterministic build, named owner__repo as `chainswe mine --repos` expects.
 */
import { readFileSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildDemoRepos } from "@/demo/repos";
import type { Source } from "@/evaluator/mining";
import { chainSchema, type Chain } from "@/core/schemas/dataset";

export const DEMO_CHAINS: Chain[] = readFileSync(new URL("../../demo/dataset.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => chainSchema.parse(JSON.parse(l)));

export function demoChain(name: string): Chain {
  const chain = DEMO_CHAINS.find((c) => c.repo === `chainswe-demo/${name}`);
  if (!chain) throw new Error(`no demo repository ${name}`);
  return chain;
}

/** The fields every source shares, for bug `order` (1-based) of a demo repository. */
function common(chain: Chain, order: number) {
  const bug = chain.bug_fixes[order - 1]!;
  const base = order === 1 ? chain.base_commit : chain.bug_fixes[order - 2]!.commit_hash;
  return {
    repo: chain.repo,
    instance_id: bug.swebench_instance_id,
    base_commit: base,
    created_at: bug.date,
    patch: bug.patch,
    test_patch: bug.test_patch,
    problem_statement: bug.problem_statement,
    commit_hash: bug.commit_hash,
    /** only the chain's first base has a built image (`chainswe demo images`) */
    image_name: `chainswe-demo/${chain.repo.split("/")[1]}:${base.slice(0, 12)}`,
    FAIL_TO_PASS: bug.FAIL_TO_PASS,
    PASS_TO_PASS: bug.PASS_TO_PASS,
    test_cmds: bug.test_cmds,
  };
}

/** One demo bug as a record of the given source's instance files. */
export function demoInstance(source: Source, name: string, order: number): Record<string, unknown> {
  const { test_cmds, FAIL_TO_PASS, PASS_TO_PASS, ...rest } = common(demoChain(name), order);
  switch (source) {
    case "SWE-rebench":
      return { ...rest, FAIL_TO_PASS, PASS_TO_PASS, version: "0.1", install_config: { test_cmd: test_cmds.join(" && "), log_parser: "pytest" } };
    case "SWE-bench-Live":
      return { ...rest, FAIL_TO_PASS, PASS_TO_PASS, test_cmds, log_parser: "pytest" };
    default:
      // SWE-bench and SWE-Gym ship the test lists as JSON strings and no test command
      return { ...rest, FAIL_TO_PASS: JSON.stringify(FAIL_TO_PASS), PASS_TO_PASS: JSON.stringify(PASS_TO_PASS), version: "0.1", environment_setup_commit: rest.base_commit };
  }
}

export async function writeInstanceFile(path: string, records: unknown[]): Promise<string> {
  await writeFile(path, records.map((r) => JSON.stringify(r) + "\n").join(""));
  return path;
}

/** The demo repositories as clones under `dir/chainswe-demo__<name>`. */
export async function demoClones(dir: string): Promise<string> {
  const staging = join(dir, "build");
  const repos = join(dir, "repos");
  await mkdir(repos, { recursive: true });
  for (const r of await buildDemoRepos(staging)) await rename(r.dir, join(repos, `chainswe-demo__${r.name}`));
  return repos;
}
