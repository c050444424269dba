/**
 * The reference agents, one command each (run.mjs starts them):
 *   gold        applies the bug's gold patch
 *   noop        changes nothing
 *   undershoot  applies the gold patch without its last hunk
 *   overshoot   applies the gold patch and appends --text to --file (a stray edit)
 * They read the dataset themselves (--dataset); the harness hands an agent no
 * gold patch. Each reports one turn and no cost in the metrics file. Other
 * agents register their own commands (`more`): demo/agent.mjs adds the demo
 * systems, so this harness imports nothing of the demo.
 */
import { Command } from "commander";
import { loadDataset } from "@/evaluator/dataset";
import { q } from "@/evaluator/replay/scripts";
import type { Bug } from "@/core/schemas/dataset";
import { mustExec, readAgentEnv, writeMetrics, type AgentEnv } from "./env";
import { dropLastHunk } from "./patches";

export async function goldOf(datasetPath: string, env: AgentEnv): Promise<Bug> {
  const dataset = await loadDataset(datasetPath);
  const chain = dataset.chains.find((c) => c.continuous_id === env.CHAINSWE_CHAIN_ID);
  const bug = chain?.bug_fixes.find((b) => b.order === env.CHAINSWE_ORDER);
  if (!bug) throw new Error(`${datasetPath} has no bug ${env.CHAINSWE_ORDER} in chain ${env.CHAINSWE_CHAIN_ID}`);
  return bug;
}

async function applyPatch(env: AgentEnv, patch: string): Promise<void> {
  if (patch.trim() !== "") await mustExec(env, "git apply --whitespace=nowarn", patch);
}

/** Adds an agent's command to the reference agents' program. */
export type AgentCommand = (program: Command) => void;

export async function main(argv: string[], more: AgentCommand[] = []): Promise<void> {
  const program = new Command("reference-agent").exitOverride();
  const withDataset = (name: string, description: string) =>
    program.command(name).description(description).requiredOption("--dataset <file>", "the dataset the rollout runs");
  program.command("noop").description("changes nothing").action(async () => writeMetrics(readAgentEnv(), { turns: 0 }));
  withDataset("gold", "applies the gold patch").action(async (o: { dataset: string }) => {
    const env = readAgentEnv();
    await applyPatch(env, (await goldOf(o.dataset, env)).patch);
    await writeMetrics(env, { turns: 1 });
  });
  withDataset("undershoot", "applies the gold patch without its last hunk").action(async (o: { dataset: string }) => {
    const env = readAgentEnv();
    await applyPatch(env, dropLastHunk((await goldOf(o.dataset, env)).patch));
    await writeMetrics(env, { turns: 1 });
  });
  withDataset("overshoot", "applies the gold patch and appends a stray line to another file")
    .requiredOption("--file <path>", "file (relative to the repository) that gets the stray line")
    .option("--text <line>", "the stray line", "# edited while fixing another bug")
    .action(async (o: { dataset: string; file: string; text: string }) => {
      const env = readAgentEnv();
      await applyPatch(env, (await goldOf(o.dataset, env)).patch);
      await mustExec(env, `cat >> ${q(o.file)}`, `${o.text}\n`);
      await writeMetrics(env, { turns: 1 });
    });
  for (const add of more) add(program);
  await program.parseAsync(argv, { from: "user" });
}
