/**
 * The whole demo build: repositories, dataset, simulated predictions of every system in
 * Oracle and Seq mode, and expected.json, after checking the hand-derived expectations
 * against the host replay. Output is deterministic; `compareOutputs` diffs two builds.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { buildDemoRepos } from "../repos";
import { findChainErrors, type DemoChainError } from "./chain-errors";
import { buildChain, type ChainFacts, type DemoChain } from "./dataset";
import { decodeOutcomes, EXPECTED, type ExpectedBug } from "./expectations";
import { runMeta } from "./metadata";
import { MODES, simulateChain, type ChainSimulation, type SimulatedBug } from "./simulate";
import { SYSTEMS } from "./systems";

export const OUTPUT_FILES = { dataset: "dataset.jsonl", expected: "expected.json", predictions: "predictions" } as const;

type Simulated = { facts: ChainFacts; sim: ChainSimulation }[];

/** Every difference between the hand-derived expectations and the replay, as readable lines. */
function checkExpectations(all: Simulated): string[] {
  const problems: string[] = [];
  for (const system of SYSTEMS) {
    const expectation = EXPECTED[system.name];
    if (!expectation) {
      problems.push(`${system.name}: no hand-derived expectation`);
      continue;
    }
    const errors: DemoChainError[] = [];
    for (const { facts, sim } of all) {
      const repo = facts.repo.name;
      const runs = sim.get(system.name)!;
      for (const mode of MODES) {
        const codes = expectation.chains?.[repo]?.[mode] ?? expectation.fallback;
        const expected = decodeOutcomes(codes, facts.bugs.length, `${system.name} ${repo} ${mode}`);
        runs[mode].forEach((bug, i) => {
          const want = expected[i]!;
          const got = pickOutcome(bug);
          if (JSON.stringify(want) !== JSON.stringify(got)) {
            problems.push(`${system.name} ${mode} ${bug.swebench_instance_id}: expected ${JSON.stringify(want)}, replay ${JSON.stringify(got)}`);
          }
        });
      }
      errors.push(...findChainErrors(runs.oracle, runs.seq));
    }
    const got = errors.map((e) => `${e.continuous_id.replace(/-chain-1$/, "")}:${e.order}:${e.cause}:${e.fingerprint}`).sort();
    const want = (expectation.chainErrors ?? []).map(([r, o, c, f]) => `${r}:${o}:${c}:${f}`).sort();
    if (got.join() !== want.join()) problems.push(`${system.name} chain errors: expected [${want.join(", ")}], replay [${got.join(", ")}]`);
  }
  return problems;
}

function pickOutcome(bug: SimulatedBug): ExpectedBug {
  return { resolved: bug.resolved, fingerprint: bug.fingerprint, patch_applied: bug.patch_applied, tampered: bug.tampered };
}

function jsonl(rows: unknown[]): string {
  return rows.map((row) => JSON.stringify(row) + "\n").join("");
}

function expectedDocument(all: Simulated): unknown {
  const systems: Record<string, unknown> = {};
  for (const system of SYSTEMS) {
    const byMode = (mode: (typeof MODES)[number]) =>
      all.flatMap(({ sim }) =>
        sim.get(system.name)![mode].map((bug) => ({
          continuous_id: bug.continuous_id,
          swebench_instance_id: bug.swebench_instance_id,
          order: bug.order,
          ...pickOutcome(bug),
        })),
      );
    systems[system.name] = {
      summary: system.summary,
      oracle: byMode("oracle"),
      seq: byMode("seq"),
      chain_errors: all.flatMap(({ sim }) => findChainErrors(sim.get(system.name)!.oracle, sim.get(system.name)!.seq)),
    };
  }
  return {
    about:
      "Hand-derived outcomes of every demo system (demo/lib/expectations.ts), checked by a host replay. " +
      "Per bug: resolved, fingerprint, patch_applied, tampered. chain_errors follow SPEC §5 strictly " +
      "(evidence: M_j = files of the applied Seq patch j, F_j = gold files of j).",
    dataset: "demo/dataset.jsonl",
    predictions: "demo/predictions/<system>.<mode>.jsonl",
    systems,
  };
}

function predictionLines(all: Simulated, system: (typeof SYSTEMS)[number], mode: (typeof MODES)[number]): string {
  const rows = all.flatMap(({ sim }) =>
    sim.get(system.name)![mode].map((bug) => ({
      continuous_id: bug.continuous_id,
      swebench_instance_id: bug.swebench_instance_id,
      model_patch: bug.model_patch,
      model_name_or_path: system.name,
      ...runMeta(system.name, mode, bug.swebench_instance_id, system.profile),
    })),
  );
  return jsonl(rows);
}

/**
 * Builds everything into outRoot (dataset.jsonl, expected.json, predictions/). The git
 * repositories it replays are built in a private directory under workDir, so nothing
 * else rebuilding demo/work/repos at the same time can disturb it.
 */
export async function generateDemo(outRoot: string, workDir: string, log: (msg: string) => void = () => undefined): Promise<DemoChain[]> {
  const reposDir = await mkdtemp(path.join(workDir, "generate-"));
  try {
    return await generateInto(outRoot, reposDir, log);
  } finally {
    await rm(reposDir, { recursive: true, force: true });
  }
}

async function generateInto(outRoot: string, reposDir: string, log: (msg: string) => void): Promise<DemoChain[]> {
  log("building repositories");
  const repos = await buildDemoRepos(reposDir);
  log("verifying FAIL_TO_PASS / PASS_TO_PASS with pytest");
  const facts = await Promise.all(repos.map((repo) => buildChain(repo)));
  log(`replaying ${SYSTEMS.length} systems x ${MODES.length} modes`);
  const all: Simulated = await Promise.all(facts.map(async (f) => ({ facts: f, sim: await simulateChain(f, SYSTEMS) })));
  const problems = checkExpectations(all);
  if (problems.length > 0) throw new Error(`hand-derived expectations disagree with the replay:\n  ${problems.join("\n  ")}`);

  const chains = facts.map((f) => f.chain);
  const predictionsDir = path.join(outRoot, OUTPUT_FILES.predictions);
  await rm(predictionsDir, { recursive: true, force: true });
  await mkdir(predictionsDir, { recursive: true });
  await writeFile(path.join(outRoot, OUTPUT_FILES.dataset), jsonl(chains));
  await writeFile(path.join(outRoot, OUTPUT_FILES.expected), JSON.stringify(expectedDocument(all), null, 2) + "\n");
  for (const system of SYSTEMS) {
    for (const mode of MODES) {
      await writeFile(path.join(predictionsDir, `${system.name}.${mode}.jsonl`), predictionLines(all, system, mode));
    }
  }
  return chains;
}

async function listOutputs(root: string): Promise<string[]> {
  const predictions = await readdir(path.join(root, OUTPUT_FILES.predictions)).catch(() => [] as string[]);
  return [OUTPUT_FILES.dataset, OUTPUT_FILES.expected, ...predictions.sort().map((f) => `${OUTPUT_FILES.predictions}/${f}`)];
}

/** Output files that differ between two build roots (missing on either side counts). */
export async function compareOutputs(committedRoot: string, freshRoot: string): Promise<string[]> {
  const names = [...new Set([...(await listOutputs(committedRoot)), ...(await listOutputs(freshRoot))])].sort();
  const differences: string[] = [];
  for (const name of names) {
    const read = (root: string) => readFile(path.join(root, name), "utf8").catch(() => null);
    const [a, b] = await Promise.all([read(committedRoot), read(freshRoot)]);
    if (a === null || a === undefined) differences.push(`${name}: not committed`);
    else if (b === null || b === undefined) differences.push(`${name}: committed but no longer generated`);
    else if (a !== b) differences.push(`${name}: differs (${firstDifferentLine(a, b)})`);
  }
  return differences;
}

function firstDifferentLine(a: string, b: string): string {
  const left = a.split("\n");
  const right = b.split("\n");
  const i = left.findIndex((line, n) => line !== right[n]);
  const at = i < 0 ? left.length : i;
  return `first at line ${at + 1}`;
}
