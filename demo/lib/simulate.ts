/**
 * Replays every system in Oracle and Seq mode on the host, exactly as SPEC §3 describes
 * (the evaluator does the same in Docker): Oracle bug k starts from G(k-1); Seq bug k from
 * A(k-1) = A(k-2) + the agent's patch k-1 (if it applied) + test patch k-1. Patches are
 * made per mode from the agent's intent, graded with the evaluator's own parser and grading.
 */
import { touchedFiles } from "@/core/diff";
import { gradeBug } from "@/core/grading";
import type { Fingerprint } from "@/core/schemas/results";
import type { ChainFacts } from "./dataset";
import { makePatch, type BugContext } from "./edits";
import { Sandbox } from "./sandbox";
import type { SystemDef } from "./systems";

export const MODES = ["oracle", "seq"] as const;
export type DemoMode = (typeof MODES)[number];

export type SimulatedBug = {
  continuous_id: string;
  swebench_instance_id: string;
  order: number;
  model_patch: string;
  resolved: boolean;
  fingerprint: Fingerprint | null;
  patch_applied: boolean;
  tampered: boolean;
  /** M_k: files the applied patch touched (empty when not applied) */
  model_files: string[];
  gold_files: string[];
  test_files: string[];
};

/** system name -> mode -> graded bugs of this chain in order */
export type ChainSimulation = Map<string, Record<DemoMode, SimulatedBug[]>>;

async function gradeOne(sandbox: Sandbox, facts: ChainFacts, index: number, start: string, patch: string) {
  const bug = facts.chain.bug_fixes[index]!;
  const bugFacts = facts.bugs[index]!;
  await sandbox.reset(start);
  const method = await sandbox.applyModelPatch(start, patch);
  if (method !== null && method !== "git_apply") {
    // fallback methods can leave .orig/.rej files behind; keep demo states clean
    throw new Error(`${bug.swebench_instance_id}: a demo patch applied only with ${method}`);
  }
  await sandbox.applyTestPatch(start, bugFacts.goldPrev, bug.test_patch);
  const state = await sandbox.commitAll(`graded ${bug.swebench_instance_id}`);
  const run = await sandbox.runTests(state, bugFacts.testFiles);
  const grade = gradeBug({
    parsed: run.parsed,
    failToPass: bug.FAIL_TO_PASS,
    passToPass: bug.PASS_TO_PASS,
    patchApplied: method !== null,
    patchEmpty: patch.trim() === "",
    timedOut: false,
    exitCode: run.exitCode,
  });
  const result: SimulatedBug = {
    continuous_id: facts.chain.continuous_id,
    swebench_instance_id: bug.swebench_instance_id,
    order: bug.order,
    model_patch: patch,
    resolved: grade.resolved,
    fingerprint: grade.fingerprint,
    patch_applied: method !== null,
    tampered: grade.tampered,
    model_files: method !== null ? touchedFiles(patch) : [],
    gold_files: bugFacts.goldFiles,
    test_files: bugFacts.testPatchFiles,
  };
  return { result, state };
}

function contextOf(facts: ChainFacts, index: number): BugContext {
  const bug = facts.chain.bug_fixes[index]!;
  const goldPrev = facts.bugs[index]!.goldPrev;
  return { package: facts.repo.source.package, goldPrev, order: bug.order, goldPatch: bug.patch, failToPass: bug.FAIL_TO_PASS };
}

/**
 * Memo of one chain's replay. Scratch commits are deterministic (fixed signature, same
 * parent and content give the same hash), so systems that behave alike share work.
 */
type Memo = { patches: Map<string, Promise<string>>; grades: Map<string, ReturnType<typeof gradeOne>> };

function memoized<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = map.get(key);
  if (!value) {
    value = make();
    map.set(key, value);
  }
  return value;
}

async function simulateMode(sandbox: Sandbox, facts: ChainFacts, system: SystemDef, mode: DemoMode, memo: Memo): Promise<SimulatedBug[]> {
  const out: SimulatedBug[] = [];
  let agentState = facts.repo.baseCommit;
  for (let index = 0; index < facts.bugs.length; index++) {
    const start = mode === "oracle" ? facts.bugs[index]!.goldPrev : agentState;
    const plan = system.plan(facts.repo.name, index + 1);
    const where = `${system.name} ${mode} ${facts.chain.bug_fixes[index]!.swebench_instance_id}`;
    const patch = await memoized(memo.patches, `${index} ${start} ${JSON.stringify(plan)}`, () =>
      makePatch(sandbox, start, plan, contextOf(facts, index)),
    ).catch((error: unknown) => {
      throw new Error(`${where}: ${error instanceof Error ? error.message : String(error)}`);
    });
    const { result, state } = await memoized(memo.grades, `${index} ${start} ${patch}`, () => gradeOne(sandbox, facts, index, start, patch));
    out.push(result);
    agentState = state;
  }
  return out;
}

export async function simulateChain(facts: ChainFacts, systems: SystemDef[]): Promise<ChainSimulation> {
  const sandbox = await Sandbox.clone(facts.repo.dir);
  try {
    const sim: ChainSimulation = new Map();
    const memo: Memo = { patches: new Map(), grades: new Map() };
    for (const system of systems) {
      sim.set(system.name, {
        oracle: await simulateMode(sandbox, facts, system, "oracle", memo),
        seq: await simulateMode(sandbox, facts, system, "seq", memo),
      });
    }
    return sim;
  } finally {
    await sandbox.dispose();
  }
}
