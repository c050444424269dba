import { describe, expect, it } from "vitest";
import { heldOutProblems, hiddenChains } from "./held-out";

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
