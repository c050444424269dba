/**
 * What a reviewer's re-run does, said before it is done: the Re-run button asks
 * for confirmation with this text. Pure, from what the submission page shows.
 */
export type RerunFacts = { chains: number; bugsGraded: number; bugsResolved: number; earlierAttempts: number };

export function rerunWarning(f: RerunFacts): string {
  const chains = f.chains === 1 ? "its one chain" : `all ${f.chains} chains`;
  if (f.bugsGraded === 0) return `Queue ${chains} again from scratch? Nothing has been graded yet, so no results are replaced.`;
  return (
    `Replay ${chains} from scratch? The current results (${f.bugsGraded} bug${f.bugsGraded === 1 ? "" : "s"} graded, ${f.bugsResolved} resolved) ` +
    "stop being this submission's: its scores, leaderboard figures and chain-error analyses are gone until the re-run ends and recomputed from its results. " +
    `The current results are kept on this page as earlier attempt ${f.earlierAttempts + 1}.`
  );
}
