import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KEPT_NAMES, addedTokens, goldSimilarity, lineTokens, sharedAddedLines } from "./similarity";

const diff = (...added: string[]) => ["diff --git a/m.py b/m.py", "--- a/m.py", "+++ b/m.py", "@@ -1,1 +1,9 @@", " context = 1", "-old = 2", ...added.map((l) => `+${l}`)].join("\n");

/** The demo's predictions of a system in Seq mode, by instance id (its real patches). */
function demo(system: string): Map<string, string> {
  const text = readFileSync(join(import.meta.dirname, "..", "..", "demo", "predictions", `${system}.seq.jsonl`), "utf8");
  return new Map(
    text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { swebench_instance_id: string; model_patch: string })
      .map((p) => [p.swebench_instance_id, p.model_patch]),
  );
}

/** Renames every name the patch's added lines define or use (not keywords or builtins), consistently, as a copier would, in strings too. */
function renamed(patch: string): string {
  const names = new Map<string, string>();
  return patch
    .split("\n")
    .map((l) =>
      l.startsWith("+") && !l.startsWith("+++ ")
        ? l.replace(/\b[A-Za-z_]\w*\b(?!["'])/g, (n) => {
            if (KEPT_NAMES.has(n)) return n;
            if (!names.has(n)) names.set(n, `renamed_${names.size}`);
            return names.get(n)!;
          })
        : l,
    )
    .join("\n");
}

describe("lineTokens", () => {
  it("drops whitespace and comments, keeps keywords, replaces names by ID and strings by STR", () => {
    expect(lineTokens("    total = price * 2  # the gross")).toEqual(["ID", "=", "ID", "*", "2"]);
    expect(lineTokens('return f"{x} # not a comment" if x else None')).toEqual(["return", "STR", "if", "ID", "else", "None"]);
    expect(lineTokens("# only a comment")).toEqual([]);
  });

  it("reads added lines only, not the file header or context", () => {
    expect(addedTokens(diff("a = b"))).toEqual(["ID", "=", "ID"]);
  });
});

describe("goldSimilarity", () => {
  it("hand-worked: Dice over runs of five tokens", () => {
    // gold: ID = ID + 1 → one run of 5; model: ID = ID + 1 then return ID → runs
    // [ID = ID + 1], [= ID + 1 return], [ID + 1 return ID]: 1 shared, 2·1/(1 + 3) = 0.5
    expect(goldSimilarity(diff("x = y + 1", "return x"), diff("a = b + 1"))).toBe(0.5);
    // a stream shorter than five tokens is one run
    expect(goldSimilarity(diff("x = y"), diff("a = b"))).toBe(1);
    expect(goldSimilarity(diff("x = y"), diff("a = 1"))).toBe(0);
  });

  it("is 1 for a copy with renamed variables, other layout and comments", () => {
    const gold = diff("def area(width, height):", "    return width * height");
    const copy = diff("def size(w,h):  # renamed", "        return w*h");
    expect(goldSimilarity(copy, gold)).toBe(1);
  });

  it("is null when gold adds nothing, and 0 for an empty model patch", () => {
    expect(goldSimilarity(diff("x = 1"), diff())).toBeNull();
    expect(goldSimilarity("", diff("x = 1"))).toBe(0);
  });

  describe("on the demo's real patches", () => {
    const gold = demo("demo-gold");
    const at = (system: string, threshold = 0.9) => [...demo(system)].filter(([id, p]) => (goldSimilarity(p, gold.get(id)!) ?? 0) >= threshold).map(([id]) => id);

    it("demo-gold is close to gold on every bug, demo-empty and demo-cheater on none", () => {
      expect(at("demo-gold")).toHaveLength(16);
      expect(at("demo-empty")).toEqual([]);
      expect(at("demo-cheater")).toEqual([]);
    });

    it("a copy of gold with every name renamed is still close to gold on every bug", () => {
      for (const [id, patch] of gold) {
        const copy = renamed(patch);
        expect(copy, id).not.toBe(patch);
        expect(goldSimilarity(copy, patch), id).toBeGreaterThanOrEqual(0.9);
      }
    });

    it("demo-drifter: close to gold exactly where its patch is gold's (the demo builds it from gold), not where it drifts", () => {
      const drifter = demo("demo-drifter");
      const verbatim = [...drifter].filter(([id, p]) => p === gold.get(id)).map(([id]) => id);
      const flagged = at("demo-drifter");
      expect(flagged).toEqual(expect.arrayContaining(verbatim));
      // its own fixes: inikit 1 (skips writer.py, edits values.py) and moneyx 1 (rounds every currency to cents)
      expect(flagged).not.toContain("chainswe-demo__inikit-1");
      expect(flagged).not.toContain("chainswe-demo__moneyx-1");
    });
  });
});

describe("sharedAddedLines", () => {
  it("marks the added lines the other patch adds too, after normalisation, each at most once", () => {
    const mine = diff("x = y + 1", "x = y + 1", "print(x)");
    const theirs = diff("a = b + 1  # same", "print(a)");
    const lines = mine.split("\n");
    const shared = [...sharedAddedLines(mine, theirs)].map((i) => lines[i]);
    expect(shared).toEqual(["+x = y + 1", "+print(x)"]);
  });
});
