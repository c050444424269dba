/**
 * Chain proposals validated for real (SPEC §8): proposed through the intake
 * (the demo images checked on the engine, an unknown one refused), then the
 * worker pool replays each chain's gold patches in Docker on the demo images,
 * CHAINSWE_FLAKY_RUNS times: a valid chain, one whose gold leaves a
 * FAIL_TO_PASS failing, one whose test patch does not apply, and one with a
 * coin-flip test that the flakiness check names and takes out of the lists
 * (the version's default rule, drop). Ten runs: the coin test keeps one status
 * through all of them once in 512.
 */
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_DATASET, ensureDemoImages } from "@/cli/demo";
import { loadDataset } from "@/evaluator/dataset";
import { InputError } from "@/core/errors";
import { openTestDb, testViewer, type TestDb } from "@/lib/testing/test-db";
import { COIN_TEST, jsonl, proposedChain } from "@/lib/testing/proposed-chains";
import type { Viewer } from "@/lib/accounts/users";

const RUNS = 10;
let t: TestDb;
let alice: Viewer;

beforeAll(async () => {
  t = await openTestDb();
  vi.stubEnv("TMPDIR", await mkdtemp(join(tmpdir(), "chainswe-proposals-docker-")));
  vi.stubEnv("CHAINSWE_TEST_TIMEOUT_S", "120");
  await ensureDemoImages(await loadDataset(DEMO_DATASET));
  alice = await testViewer(t, "alice", null);
});

afterAll(async () => t?.close());

function upload(text: string): Request {
  const form = new FormData();
  form.append("dataset_version", "v1");
  form.append("chains", new Blob([text]), "proposal.jsonl");
  return new Request("http://localhost/api/v1/proposals", { method: "POST", body: form });
}

describe("proposals validated in Docker", () => {
  it("refuses an image neither on the engine nor pullable, naming it; the demo images pass", async () => {
    const { receiveProposal } = await import("@/lib/proposals/intake");
    const unknown = { ...proposedChain("inikit", "img", { bugs: 1 }), docker_image: "chainswe-test/no-such-image:0" };
    const e = await receiveProposal(alice, upload(jsonl([proposedChain("moneyx", "img", { bugs: 1 }), unknown]))).catch((e: unknown) => e);
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).issues).toEqual([{ line: 2, id: "inikit-img", field: "docker_image", message: "image chainswe-test/no-such-image:0 is not on the workers' engine and cannot be pulled" }]);
    expect(await t.db.chainProposal.count()).toBe(0);
  });

  it("runs the paper's filter and the flakiness check on the workers, per bug, with logs", async () => {
    const { receiveProposal } = await import("@/lib/proposals/intake");
    const { getProposal } = await import("@/lib/proposals/data");
    const unapplied = proposedChain("dateranges", "p", { bugs: 1 });
    // a context line the repository does not have: the test patch cannot apply
    unapplied.bug_fixes[0]!.test_patch = unapplied.bug_fixes[0]!.test_patch.replace(/\n /, "\n context that is not there\n ");
    const chains = [
      proposedChain("inikit", "p", { bugs: 1 }),
      proposedChain("moneyx", "p", { bugs: 1, goldFails: true }),
      unapplied,
      proposedChain("semverkit", "p", { bugs: 1, coinFlip: true }),
    ];
    const { id } = await receiveProposal(alice, upload(jsonl(chains)));
    const { startWorkerPool } = await import("@/jobs/queue");
    const { portalLoaders } = await import("@/lib/site/queue-loaders");
    const lines: string[] = [];
    const pool = startWorkerPool({ concurrency: 1, leaseMs: 30_000, pollMs: 200, workerId: "proposals-test", loaders: portalLoaders, untilIdle: true, flakyRuns: RUNS, log: (l) => lines.push(l) });
    await pool.done;
    const view = await getProposal(alice, id);
    const [valid, goldFails, notApplied, coin] = view.chains;

    expect(valid).toMatchObject({ status: "valid", refusal: null, job: { status: "done" } });
    expect(valid!.validation).toMatchObject({ ok: true, runs: RUNS, rule: "drop" });
    expect(valid!.validation!.bugs[0]!.runs).toHaveLength(RUNS);
    expect(valid!.validation!.bugs[0]!.runs.every((r) => r.patch_applied && r.failing.length === 0 && r.duration_s > 0)).toBe(true);
    expect(valid!.log).toContain(`=== run ${RUNS} of ${RUNS}, bug 1 (${chains[0]!.bug_fixes[0]!.swebench_instance_id}) ===`);

    expect(goldFails).toMatchObject({ status: "refused" });
    expect(goldFails!.refusal).toBe(`bug 1 (${chains[1]!.bug_fixes[0]!.swebench_instance_id}): FAIL_TO_PASS tests/test_parser.py::test_no_such_test does not pass with the gold patch`);

    expect(notApplied).toMatchObject({ status: "refused", validation: null });
    expect(notApplied!.refusal).toMatch(new RegExp(`^bug 1 \\(${unapplied.bug_fixes[0]!.swebench_instance_id}\\): .*test patch`));

    expect(coin).toMatchObject({ status: "valid" });
    expect(coin!.validation!.bugs[0]!.flaky).toEqual([COIN_TEST]);
    const record = await t.db.proposedChain.findUniqueOrThrow({ where: { id: coin!.id } });
    const validated = JSON.parse(record.validatedRecord!) as { bug_fixes: { PASS_TO_PASS: string[] }[] };
    expect(validated.bug_fixes[0]!.PASS_TO_PASS).not.toContain(COIN_TEST);
    expect(JSON.parse(record.record).bug_fixes[0].PASS_TO_PASS).toContain(COIN_TEST);
    // every validation sandbox is gone
    const { docker } = await import("@/evaluator/sandbox");
    expect(await docker().listContainers({ all: true, filters: { label: ["chainswe.proposed_chain", `chainswe.tag=${process.env.CHAINSWE_SANDBOX_TAG}`] } })).toEqual([]);
  });
});
