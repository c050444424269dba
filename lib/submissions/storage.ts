/**
 * The storage limit: the text a team's submissions store (predictions,
 * trajectories, test logs; Submission.uploadBytes + resultBytes) is capped,
 * and so is what one user's uploads store across all their teams (free teams
 * buy no more room). Checked when an upload arrives, with that upload's bytes;
 * test logs count once their chain is handed in, so evaluations already queued
 * can take a team past it by what they write. Deleting a submission frees its
 * bytes (./removal.ts).
 */
import type { Tx } from "@/db/tx";
import { db } from "@/db/client";
import { LimitError } from "@/core/errors";
import { Prisma } from "@/db/generated/prisma/client";
import { dbEngine } from "@/db/schema";
import { env } from "@/env";

/** Whose submissions count together against one limit: a team's, or those a user uploaded. */
export type StorageScope = { teamId: string } | { userId: string };

/** The bytes the scope's submissions store; a user's chain proposals (records and validation logs) count for the user too. */
export async function storageUse(scope: StorageScope, client: Tx | typeof db = db): Promise<number> {
  const where = "teamId" in scope ? { system: { teamId: scope.teamId } } : { submittedById: scope.userId };
  const sum = await client.submission.aggregate({ where, _sum: { uploadBytes: true, resultBytes: true } });
  const proposed = "userId" in scope ? await proposedBytes(scope.userId, client) : 0;
  return Number(sum._sum.uploadBytes ?? 0n) + Number(sum._sum.resultBytes ?? 0n) + proposed;
}

/** The UTF-8 bytes of a text column, as each engine counts them (SQLite's length() counts characters of a text). */
export const utf8Bytes = (column: Prisma.Sql): Prisma.Sql =>
  dbEngine(env().DATABASE_URL) === "postgresql" ? Prisma.sql`octet_length(${column})` : Prisma.sql`length(CAST(${column} AS BLOB))`;

/** What the user's chain proposals store: each chain's record and its validation's logs, summed by the database. */
async function proposedBytes(userId: string, client: Tx | typeof db): Promise<number> {
  const [row] = await client.$queryRaw<{ n: bigint | number | null }[]>`
    SELECT SUM(${utf8Bytes(Prisma.sql`pc."record"`)} + ${utf8Bytes(Prisma.sql`pc."log"`)}) AS n
    FROM "ProposedChain" pc JOIN "ChainProposal" p ON p."id" = pc."proposalId" WHERE p."proposedById" = ${userId}`;
  return Number(row?.n ?? 0);
}

const size = (bytes: number): string =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GB` : bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Refuses (413) an upload of `adding` bytes that would take the scope past `limit`
 * bytes; `adding` 0 checks that the scope is not already full.
 */
export async function assertStorageRoom(scope: StorageScope, who: string, adding: number, limit: number, client: Tx | typeof db = db): Promise<void> {
  const used = await storageUse(scope, client);
  if (adding === 0 ? used < limit : used + adding <= limit) return;
  const mine = who === "you";
  const added = adding === 0 ? "" : `; this upload would add ${size(adding)}`;
  throw new LimitError(
    `${mine ? "you store" : `${who} stores`} ${size(used)} of ${mine ? "submissions and chain proposals" : "submissions"}${added}, past ${mine ? "your" : "its"} storage limit of ${size(limit)} (CHAINSWE_TEAM_STORAGE_MB): ` +
      `delete private submissions ${mine ? "you" : "it"} no longer need${mine ? "" : "s"}`,
    413,
  );
}
