/**
 * Builds the demo benchmark: `npx tsx demo/build.ts` writes demo/dataset.jsonl,
 * demo/predictions/*.jsonl and demo/expected.json (git repositories go to demo/work/repos);
 * `--check` rebuilds into a temporary directory and exits 1 if the committed files differ.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { compareOutputs, generateDemo } from "./lib/generate";
import { DEMO_DIR } from "./lib/source";
import { buildDemoRepos, DEFAULT_REPOS_DIR } from "./repos";

const log = (msg: string) => console.error(`[demo] ${msg}`);

async function main(argv: string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    console.error(`usage: npx tsx demo/build.ts [--check]  (unknown: ${unknown.join(" ")})`);
    return 2;
  }
  if (!argv.includes("--check")) {
    const chains = await generateDemo(DEMO_DIR, os.tmpdir(), log);
    log(`wrote ${chains.length} chains, predictions and expected.json under ${DEMO_DIR}`);
    const repos = await buildDemoRepos(DEFAULT_REPOS_DIR);
    log(`git repositories: ${repos.map((r) => path.relative(process.cwd(), r.dir)).join(", ")}`);
    return 0;
  }
  const tmp = await mkdtemp(path.join(os.tmpdir(), "chainswe-demo-check-"));
  try {
    await generateDemo(tmp, tmp, log);
    const differences = await compareOutputs(DEMO_DIR, tmp);
    if (differences.length === 0) {
      log("committed demo files are up to date");
      return 0;
    }
    console.error(`demo files are out of date; run npx tsx demo/build.ts\n  ${differences.join("\n  ")}`);
    return 1;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
