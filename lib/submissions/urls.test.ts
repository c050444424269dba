/** Links to a submission, a bug's failure page and its log, with ids and chain names escaped. */
import { describe, expect, it } from "vitest";
import { failurePageUrl, logDownloadUrl, logPageUrl, submissionPageUrl } from "@/lib/submissions/urls";

describe("submission URLs", () => {
  it("escape ids and chain names", () => {
    expect(submissionPageUrl("sub 1")).toBe("/submissions/sub%201");
    expect(failurePageUrl("sub 1", "A/b", 2)).toBe("/submissions/sub%201/chains/A%2Fb/bugs/2");
    expect(logPageUrl("s", "c", 3)).toBe("/submissions/s/chains/c/bugs/3/log");
    expect(logDownloadUrl("s", "c", 3)).toBe("/api/v1/submissions/s/logs/c/3?download=1");
  });
});
