import { describe, expect, it } from "vitest";
import { rerunWarning } from "./rerun-warning";

describe("rerunWarning", () => {
  it("says what is replaced, what is lost until the re-run ends, and which attempt keeps it", () => {
    expect(rerunWarning({ chains: 5, bugsGraded: 16, bugsResolved: 12, earlierAttempts: 1 })).toBe(
      "Replay all 5 chains from scratch? The current results (16 bugs graded, 12 resolved) stop being this submission's: its scores, leaderboard figures and chain-error analyses are gone until the re-run ends and recomputed from its results. The current results are kept on this page as earlier attempt 2.",
    );
  });

  it("says when nothing is replaced", () => {
    expect(rerunWarning({ chains: 1, bugsGraded: 0, bugsResolved: 0, earlierAttempts: 0 })).toBe("Queue its one chain again from scratch? Nothing has been graded yet, so no results are replaced.");
  });
});
