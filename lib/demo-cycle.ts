/**
 * The demo's release cycle (SPEC §8), seeded after the demo dataset: a
 * proposal of two chains made from the demo repositories, validated by the
 * workers in Docker on the demo images (the worker pool that evaluates the
 * demo's submissions), one accepted by a reviewer, the other refused by
 * validation for a flaky test; then version "demo-2" released from "demo"
 * with the accepted chain, one chain held out. Idempotent: each step is done
 * once, so a second `chainswe demo seed` adds nothing and one interrupted
 * half-way finishes the rest.
 */
import { db } from "@/db/client";
import type { Chain } from "@/core/schemas/dataset";
import { DEMO_HELD_OUT, DEMO_PROPOSER, DEMO_RELEASE, DEMO_REVIEW_REASON, DEMO_REVIEWER, demoProposalChains } from "@/lib/demo-proposal";
import type { VersionRules } from "@/core/schemas/manifest";
import { env } from "@/env";
import { viewerById } from "@/lib/accounts/users";
import { getVersionRules, setVersionRules } from "@/lib/dataset/data";
import { releaseVersion } from "@/lib/dataset/release";
import { receiveProposal } from "@/lib/proposals/intake";
import { reviewProposedChain } from "@/lib/proposals/review";
import { portalLoaders } from "@/lib/site/queue-loaders";
import { startWorkerPool } from "@/jobs/queue";

/** A user of the demo with no password (no one signs in as them), made once. */
async function demoUser(username: string, isReviewer: boolean): Promise<string> {
  const user = await db.user.upsert({ where: { username }, create: { username, name: username, isReviewer }, update: {}, select: { id: true } });
  return user.id;
}

export type DemoCycle = { proposed: boolean; validated: boolean; accepted: boolean; released: boolean };

/**
 * The cycle on version `parent` (the demo, its records `demo`): each step
 * unless done. `rules`: demo-2's rules besides its held-out chain (the demo's).
 */
export async function seedDemoCycle(parent: string, demo: Chain[], rules: VersionRules, log: (line: string) => void = () => {}): Promise<DemoCycle> {
  const done: DemoCycle = { proposed: false, validated: false, accepted: false, released: false };
  // the demo's rules too (a Mini split once it has rows), beside the chain held out at release; set once
  const withRules = async () => {
    const set = await getVersionRules(DEMO_RELEASE);
    if (set?.mini_size === undefined) await setVersionRules(DEMO_RELEASE, { ...rules, ...set, held_out: [DEMO_HELD_OUT] });
  };
  if (await db.datasetVersion.findUnique({ where: { version: DEMO_RELEASE }, select: { id: true } })) {
    await withRules();
    return done;
  }
  const proposerId = await demoUser(DEMO_PROPOSER, false);
  const reviewerId = await demoUser(DEMO_REVIEWER, true);
  const chains = demoProposalChains(demo);

  let proposal = await db.chainProposal.findFirst({ where: { proposedById: proposerId, datasetVersion: { version: parent } }, select: { id: true } });
  if (!proposal) {
    // through the intake a user's upload takes: every record checked, the images looked up on the engine
    const form = new FormData();
    form.append("dataset_version", parent);
    form.append("chains", new Blob([chains.map((c) => `${JSON.stringify(c)}\n`).join("")]), "demo-proposal.jsonl");
    const received = await receiveProposal(await viewerById(proposerId), new Request("http://localhost/api/v1/proposals", { method: "POST", body: form }));
    proposal = { id: received.id };
    done.proposed = true;
    log(`proposed ${chains.map((c) => c.continuous_id).join(" and ")} for ${parent} (proposal ${received.id})`);
  }

  if ((await db.proposedChain.count({ where: { proposalId: proposal.id, status: "validating" } })) > 0) {
    // the workers' pool, as `chainswe worker --until-idle` runs it: validations are taken when no evaluation is runnable
    log(`validating the proposal on the workers (${env().CHAINSWE_FLAKY_RUNS} gold runs per chain, in Docker)…`);
    const pool = startWorkerPool({ concurrency: chains.length, leaseMs: 60_000, pollMs: 500, workerId: `demo-seed-${process.pid}`, loaders: portalLoaders, untilIdle: true, flakyRuns: env().CHAINSWE_FLAKY_RUNS, log: () => {} });
    await pool.done;
    done.validated = true;
  }

  const rows = await db.proposedChain.findMany({ where: { proposalId: proposal.id }, select: { id: true, continuousId: true, status: true, review: true, refusal: true } });
  for (const r of rows) log(`${r.continuousId}: ${r.status}${r.refusal ? ` (${r.refusal.split("\n")[0]})` : ""}`);
  const valid = rows.find((r) => r.continuousId === chains[0]!.continuous_id);
  if (valid?.status !== "valid") throw new Error(`the demo proposal's ${chains[0]!.continuous_id} is ${valid?.status ?? "missing"}, not valid: ${valid?.refusal ?? ""}`);
  if (valid.review === "pending") {
    await reviewProposedChain(await viewerById(reviewerId), valid.id, { decision: "accept", reason: DEMO_REVIEW_REASON });
    done.accepted = true;
  }

  await releaseVersion({ version: DEMO_RELEASE, parent, accepted: true, reasons: {}, heldOut: [DEMO_HELD_OUT] });
  await withRules();
  done.released = true;
  log(`released ${DEMO_RELEASE} from ${parent}: ${chains[0]!.continuous_id} added, ${DEMO_HELD_OUT} held out`);
  return done;
}
