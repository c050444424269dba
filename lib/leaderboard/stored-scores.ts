/**
 * The columns of a stored SubmissionScore (lib/leaderboard/aggregates.ts writes
 * them): their schemas and parsers, apart so that the board's readers need not
 * import the refresh.
 */
import { z } from "zod";
import { chainRecordSchema, runScoresSchema, type ChainRecord } from "@/core/scoring";
import { parseColumn } from "@/core/schemas/columns";

/** SubmissionScore.scores: RunScores by scoring, then by position set. */
export const storedScoresSchema = z.object({
  strict: z.object({ length3: runScoresSchema, all: runScoresSchema }),
  lenient: z.object({ length3: runScoresSchema, all: runScoresSchema }),
});
export type StoredScores = z.infer<typeof storedScoresSchema>;

/** SubmissionScore.chains: each chain as the run left it, in the version's order (a bug-date window rescores from these). */
export const storedChainsSchema = z.array(chainRecordSchema);

export function parseStoredChains(text: string): ChainRecord[] {
  return parseColumn(storedChainsSchema, text, "SubmissionScore.chains");
}

export function parseStoredScores(text: string): StoredScores {
  return parseColumn(storedScoresSchema, text, "SubmissionScore.scores");
}
