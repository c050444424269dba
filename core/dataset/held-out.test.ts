import { describe, expect, it } from "vitest";
import { heldOutChangeProblem, heldOutProblems, hiddenChains } from "./held-out";

describe("heldOutProblems", () => {
  const chains = ["a", "b", "c"];
  it("accepts chains the version has", () => {
    expect(heldOutProblems(chains, ["b"])).toEqual([]);
    expect(heldOutProblems(chains, [])).toEqual([]);
  });
  it("names an unknown chain and a chain named twice", () => {
    expect(heldOutProblems(chains, ["b", "zz", "b"])).toEqual(["no chain zz in this version", "chain b is named twice"]);
  });
  it("refuses to hold out every chain: a row needs a public chain %", () => {
    expect(heldOutProblems(chains, ["a", "b", "c"])).toEqual(["every chain would be held out: keep at least one public chain"]);
  });
});

describe("hiddenChains", () => {
  it("hides the held-out chains from everyone but reviewers", () => {
    expect([...hiddenChains(["b"], false)]).toEqual(["b"]);
    expect([...hiddenChains(["b"], true)]).toEqual([]);
    expect([...hiddenChains(undefined, false)]).toEqual([]);
  });
});

describe("heldOutChangeProblem", () => {
  it("lets a version without a published submission change its held-out chains", () => {
    expect(heldOutChangeProblem("v1", undefined, ["a"], 0)).toBeNull();
    expect(heldOutChangeProblem("v1", ["a"], [], 0)).toBeNull();
  });
  it("refuses any change once a submission is published, naming the version and the way out", () => {
    for (const [before, after] of [[undefined, ["a"]], [["a"], undefined], [["a"], ["a", "b"]], [["a", "b"], ["a", "c"]]] as const) {
      expect(heldOutChangeProblem("v2", before, after, 3)).toBe("dataset v2's held-out chains are fixed: 3 submission(s) on it are published, whose scores and shown chains would change; release a new version with --held-out instead");
    }
  });
  it("takes the same chains, in any order, or none kept none, as no change", () => {
    expect(heldOutChangeProblem("v1", ["a", "b"], ["b", "a"], 3)).toBeNull();
    expect(heldOutChangeProblem("v1", undefined, [], 3)).toBeNull();
  });
});
