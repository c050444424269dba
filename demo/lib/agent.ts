/**
 * A demo system as an agent under the rollout contract (docs/ROLLOUT.md): its
 * plan for the bug (systems.ts) carried out in the container on whatever state
 * the harness started it from, and its made-up run metadata as metrics. The
 * harness's diff is then the patch the demo build makes on the host. A stale
 * diff (demo-misapply) is a forged patch no change to a tree produces: the
 * agent makes it on the host as the build does (edits.ts, from a copy of
 * G(k-1)) and submits it through CHAINSWE_PATCH_FILE, leaving the tree alone.
 * Its trajectory has steps and a few read-only commands (and, for some systems,
 * the shortcuts a trajectory scan must flag); none of them changes a patch.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadDataset } from "@/evaluator/dataset";
import { q } from "@/evaluator/replay/scripts";
import { execInContainer, mustExec, readAgentEnv, writeMetrics, type AgentEnv } from "@/evaluator/rollout/agents/env";
import { goldOf, type AgentCommand } from "@/evaluator/rollout/agents/reference";
import { stepLine } from "@/evaluator/rollout/contract";
import type { Bug, Chain } from "@/core/schemas/dataset";
import { buildRepo } from "../repos";
import { cheatText, makePatch, replacedOnce } from "./edits";
import { runMeta } from "./metadata";
import { Sandbox } from "./sandbox";
import { loadRepoSources, type RepoSource } from "./source";
import { SYSTEMS, type Edit, type Plan } from "./systems";

/** Starts a step of the trajectory with a line of the agent's own text (docs/ROLLOUT.md, "Trajectory log"). */
function step(title: string, text: string): void {
  process.stdout.write(`${stepLine(title)}\n${text}\n`);
}

/** A read-only command whatever its exit; the wrapper logs its output, which the agent does not need. */
async function look(env: AgentEnv, command: string): Promise<void> {
  await execInContainer(env, command);
}

function editStep(edit: Edit, pkg: string): [string, string] {
  if (edit.kind === "gold") return ["Apply the fix", edit.skip?.length ? `Applying the fix, all but ${edit.skip.join(", ")}.` : "Applying the fix."];
  if (edit.kind === "replace") return [`Edit ${edit.file}`, `Changing ${edit.file} as well.`];
  return ["Append forged results", `Appending an exit hook to ${pkg}/__init__.py that prints passing tests.`];
}

async function makeEdit(env: AgentEnv, edit: Edit, bug: { order: number; patch: string; FAIL_TO_PASS: string[] }, pkg: string): Promise<void> {
  if (edit.kind === "gold") {
    const exclude = (edit.skip ?? []).map((f) => ` --exclude=${q(f)}`).join("");
    // as the host build does: a plain apply, else a 3-way merge
    const plain = await mustExec(env, `git apply${exclude}`, bug.patch).then(() => true, () => false);
    if (!plain) await mustExec(env, `git apply --3way${exclude}`, bug.patch);
  } else if (edit.kind === "replace") {
    const text = await mustExec(env, `cat ${q(edit.file)}`);
    await mustExec(env, `cat > ${q(edit.file)}`, replacedOnce(text, edit.find, edit.replace, edit.file));
  } else {
    await mustExec(env, `cat >> ${q(`${pkg}/__init__.py`)}`, cheatText(bug.order, bug.FAIL_TO_PASS));
  }
}

/**
 * The stale diff the demo build ships for this bug: the repository's history
 * built afresh in a scratch directory (its commits are pinned, so G(k-1) is the
 * dataset's commit), the plan made on G(k-1) there and forged by makePatch.
 */
async function staleDiffOnHost(source: RepoSource, chain: Chain, bug: Bug, plan: Plan): Promise<string> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "chainswe-demo-agent-"));
  try {
    const built = await buildRepo(source, scratch);
    if (built.baseCommit !== chain.base_commit) throw new Error(`${source.name}: built base ${built.baseCommit}, dataset has ${chain.base_commit}`);
    const goldPrev = bug.order === 1 ? chain.base_commit : chain.bug_fixes[bug.order - 2]!.commit_hash;
    const sandbox = await Sandbox.clone(built.dir);
    try {
      return await makePatch(sandbox, goldPrev, plan, { package: source.package, goldPrev, order: bug.order, goldPatch: bug.patch, failToPass: bug.FAIL_TO_PASS });
    } finally {
      await sandbox.dispose();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function runDemoAgent(datasetPath: string, systemName: string): Promise<void> {
  const env = readAgentEnv();
  const system = SYSTEMS.find((s) => s.name === systemName);
  if (!system) throw new Error(`no demo system ${systemName} (known: ${SYSTEMS.map((s) => s.name).join(", ")})`);
  const chain = (await loadDataset(datasetPath)).chains.find((c) => c.continuous_id === env.CHAINSWE_CHAIN_ID)!;
  const bug = await goldOf(datasetPath, env);
  const repo = chain.repo.split("/")[1]!;
  const source = (await loadRepoSources()).find((r) => r.name === repo);
  if (!source) throw new Error(`no demo repository ${repo}`);
  const plan = system.plan(repo, bug.order);
  const title = bug.problem_statement.split("\n")[0]!.replace(/^#+\s*/, "");
  step("Read the issue", `Bug ${bug.order} of ${chain.continuous_id}: ${title}`);
  for (const probe of system.probes?.(repo, bug.order, bug.FAIL_TO_PASS) ?? []) await look(env, probe);
  await look(env, "ls");
  if (plan.stale) {
    step("Write the patch file", "Diffing my copy of the files; the diff is the patch file.");
    await writeFile(env.CHAINSWE_PATCH_FILE, await staleDiffOnHost(source, chain, bug, plan));
  } else {
    for (const edit of plan.edits) {
      step(...editStep(edit, source.package));
      await makeEdit(env, edit, bug, source.package);
    }
    if (plan.edits.length) {
      step("Run the tests", "Running the test suite.");
      // no cache or bytecode files (they are ignored by git anyway)
      await look(env, "PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -q -x -p no:cacheprovider 2>&1 | tail -n 15 || true");
    }
  }
  step("Submit", plan.stale ? "Submitting the patch file." : plan.edits.length ? "Submitting the changes." : "Nothing to submit.");
  await look(env, "git status --short");
  // the demo's metadata is per Oracle / Seq run; Seq+Mem shares Seq's
  await writeMetrics(env, runMeta(system.name, env.CHAINSWE_MODE === "oracle" ? "oracle" : "seq", bug.swebench_instance_id, system.profile));
}

/** The `demo` agent command (demo/agent.mjs registers it beside the reference agents). */
export const demoAgentCommand: AgentCommand = (program) =>
  program
    .command("demo")
    .description("a demo system (demo/lib/systems.ts) acting through the contract")
    .requiredOption("--dataset <file>", "the demo dataset")
    .requiredOption("--system <name>", "e.g. demo-overshoot")
    .action(async (o: { dataset: string; system: string }) => runDemoAgent(o.dataset, o.system));
