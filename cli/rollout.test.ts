import { describe, expect, it } from "vitest";
import { InputError } from "@/core/errors";
import { parseRolloutOptions } from "./rollout";

// the dataset must be a readable file; the demo's is one
const good = { dataset: new URL("../demo/dataset.jsonl", import.meta.url).pathname, mode: "seq", agent: "true", out: "/nonexistent/preds.jsonl", timeLimit: "30", concurrency: "1" };

describe("rollout options", () => {
  it("parses numbers and chain lists", () => {
    expect(parseRolloutOptions({ ...good, chains: "a, b,," })).toMatchObject({ mode: "seq", timeLimit: 30, concurrency: 1, chains: ["a", "b"] });
    expect(parseRolloutOptions(good).chains).toBeNull();
  });

  it("names every bad option", () => {
    let error: unknown;
    try {
      parseRolloutOptions({ ...good, mode: "seqq", agent: " ", out: "package.json", timeLimit: "0" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const fields = (error as InputError).issues.map((i) => i.field).sort();
    expect(fields).toEqual(["--agent", "--mode", "--out", "--time-limit"]);
    expect((error as InputError).message).toMatch(/--out: already exists/);
  });
});
