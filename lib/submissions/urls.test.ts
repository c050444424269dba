/** Links to a submission, a bug's failure page and its log, with ids and chain names escaped. */
import { describe, expect, it } from "vitest";
import { bugOrderParam, failurePageUrl, logDownloadUrl, logPageUrl, rawTrajectoryUrl, submissionPageUrl } from "@/lib/submissions/urls";

describe("submission URLs", () => {
  it("escape ids and chain names", () => {
    expect(submissionPageUrl("sub 1")).toBe("/submissions/sub%201");
    expect(failurePageUrl("sub 1", "A/b", 2)).toBe("/submissions/sub%201/chains/A%2Fb/bugs/2");
    expect(logPageUrl("s", "c", 3)).toBe("/submissions/s/chains/c/bugs/3/log");
    expect(logDownloadUrl("s", "c", 3)).toBe("/api/v1/submissions/s/logs/c/3?download=1");
    expect(rawTrajectoryUrl("sub 1", "A/b", 2)).toBe("/api/v1/submissions/sub%201/trajectories/A%2Fb/2");
  });

  it("a bug's position in a URL is a plain positive integer, or names no bug", () => {
    expect(["1", "12", "999999"].map(bugOrderParam)).toEqual([1, 12, 999999]);
    expect(["0", "01", "1.0", "1e2", "-1", "", "1234567", " 1"].map(bugOrderParam).every(Number.isNaN)).toBe(true);
  });
});
