/**
 * The daily submission quota: a team's submissions and a user's (across all
 * their teams) count separately, and a refused upload at a fraction of a
 * submission (kept as rate events).
 *
 * Uploads count on arrival, whatever happens to them later: each accepted one
 * leaves an arrival event per team and per user (RateEvent), written in the
 * transaction that stores it. So cancelling, a failed evaluation or deleting
 * the submission gives no slot back (upload, cancel, repeat once filled the
 * database without limit).
 */
import type { Tx } from "@/db/tx";
import { rateStore } from "@/lib/accounts/rate-events";
import { db } from "@/db/client";
import { LimitError } from "@/core/errors";
import { utcMinute } from "@/core/format";

const DAY_MS = 24 * 3600 * 1000;

/** Whose submissions count together against one daily quota: a team's, or a user's across all their teams. */
export type QuotaScope = { teamId: string } | { userId: string };

const arrivalKey = (scope: QuotaScope) => ("teamId" in scope ? `submission:team:${scope.teamId}` : `submission:user:${scope.userId}`);

/** How much of the daily quota is used, and when the oldest counted upload stops counting. */
export async function quotaUse(scope: QuotaScope, now: Date, client: Tx | typeof db = db): Promise<{ used: number; freesAt: Date | null }> {
  return arrivalsSince(arrivalKey(scope), now, client);
}

async function arrivalsSince(key: string, now: Date, client: Tx | typeof db): Promise<{ used: number; freesAt: Date | null }> {
  const arrivals = await client.rateEvent.findMany({ where: { key, at: { gt: new Date(now.getTime() - DAY_MS) } }, orderBy: { at: "asc" }, select: { at: true } });
  return { used: arrivals.length, freesAt: arrivals[0] ? new Date(arrivals[0].at.getTime() + DAY_MS) : null };
}

/**
 * Inside a storing transaction, before counting: takes the rows whose quotas are counted, so two uploads racing for
 * the last slot cannot both get it (PostgreSQL, read committed, would let both count the same free slot; SQLite's
 * write lock does the same).
 */
export async function lockQuotaRows(tx: Tx, rows: { teamId?: string; userId: string }): Promise<void> {
  if (rows.teamId) await tx.$executeRaw`UPDATE "Team" SET "name" = "name" WHERE "id" = ${rows.teamId}`;
  await tx.$executeRaw`UPDATE "User" SET "name" = "name" WHERE "id" = ${rows.userId}`;
}

/** Counts an accepted upload against its team's and its user's quota; in the transaction that stores it. */
export async function recordArrival(tx: Tx, by: { teamId: string; userId: string }, now: Date): Promise<void> {
  await tx.rateEvent.createMany({ data: [{ key: arrivalKey({ teamId: by.teamId }), at: now }, { key: arrivalKey({ userId: by.userId }), at: now }] });
}

/**
 * A refused upload (bad lines, too large) counts against its user's daily
 * quota too, at 1/REFUSED_PER_SUBMISSION of a submission: validating one costs
 * the site about as much as storing one, and refusals must not be free to repeat.
 */
const REFUSED_PER_SUBMISSION = 4;
const refusedKey = (userId: string) => `refused-upload:${userId}`;

/** The user's quota use: their submissions, and their refused uploads (predictions or proposals) at their weight. */
export async function userQuotaUse(userId: string, now: Date, client: Tx | typeof db): Promise<{ used: number; freesAt: Date | null }> {
  return withRefused(userId, await quotaUse({ userId }, now, client), now);
}

async function withRefused(userId: string, own: { used: number; freesAt: Date | null }, now: Date): Promise<{ used: number; freesAt: Date | null }> {
  const refused = await rateStore().list(refusedKey(userId), now.getTime() - DAY_MS);
  return { used: own.used + Math.floor(refused.length / REFUSED_PER_SUBMISSION), freesAt: own.freesAt ?? (refused[0] ? new Date(refused[0] + DAY_MS) : null) };
}

export function quotaError(who: string, quota: number, freesAt: Date | null, now: Date): LimitError {
  const when = freesText(freesAt, now);
  const arrival = "counted on arrival: cancelled, failed and deleted ones count too";
  const counted = who === "you have" ? `${arrival}; ${REFUSED_PER_SUBMISSION} refused uploads count as one` : arrival;
  return new LimitError(`${who} used ${who === "you have" ? "your" : "its"} daily quota of ${quota} submission(s) in the last 24 hours (${counted})${when}`, 429);
}

const freesText = (freesAt: Date | null, now: Date): string =>
  freesAt ? `; the next one frees up at ${utcMinute(freesAt)} UTC (in ${waitText(freesAt.getTime() - now.getTime())})` : "";

function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Counts a refused upload against its user's quota (at 1/REFUSED_PER_SUBMISSION). */
export async function recordRefusedUpload(userId: string, now: Date): Promise<void> {
  await rateStore().add(refusedKey(userId), now.getTime(), now.getTime() - DAY_MS);
}

/**
 * The daily quota of proposed chains (CHAINSWE_DAILY_PROPOSED_CHAINS), per user:
 * each proposed chain costs the workers n gold replays, so each counts on
 * arrival (one event per chain, in the transaction that stores the proposal),
 * whatever its validation and review come to; refused uploads count here too,
 * at the same weight as against the submission quota.
 */
const proposedKey = (userId: string) => `proposed-chain:user:${userId}`;

export async function proposedChainsUse(userId: string, now: Date, client: Tx | typeof db): Promise<{ used: number; freesAt: Date | null }> {
  return withRefused(userId, await arrivalsSince(proposedKey(userId), now, client), now);
}

/** Counts a stored proposal's chains against its proposer's daily quota; in the transaction that stores it. */
export async function recordProposedChains(tx: Tx, userId: string, chains: number, now: Date): Promise<void> {
  await tx.rateEvent.createMany({ data: Array.from({ length: chains }, () => ({ key: proposedKey(userId), at: now })) });
}

export function proposedChainsQuotaError(quota: number, used: number, adding: number, freesAt: Date | null, now: Date): LimitError {
  const when = freesText(freesAt, now);
  const left = Math.max(0, quota - used);
  const asked = adding > 1 ? `; this proposal has ${adding} chains and ${left} remain` : "";
  return new LimitError(
    `you have used your daily quota of ${quota} proposed chain(s) in the last 24 hours (CHAINSWE_DAILY_PROPOSED_CHAINS; counted on arrival, refused and rejected ones too; ${REFUSED_PER_SUBMISSION} refused uploads count as one)${asked}${when}`,
    429,
  );
}
