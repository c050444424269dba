import { describe, expect, it } from "vitest";
import { datasetCodeOnly } from "./chain";

const gold = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";

describe("datasetCodeOnly (whether the next bug may skip the revert)", () => {
  it("holds for a run with no applied patch, or the gold patch itself, from a dataset-only start", () => {
    expect(datasetCodeOnly(true, false, "", gold)).toBe(true);
    expect(datasetCodeOnly(true, false, "garbage that did not apply", gold)).toBe(true);
    expect(datasetCodeOnly(true, true, gold, gold)).toBe(true);
  });

  it("fails for any applied patch that is not byte for byte the gold one", () => {
    expect(datasetCodeOnly(true, true, gold.replace("x = 2", "x = 3"), gold)).toBe(false);
    // the same change plus a file git would never commit (an ignored path) is not the gold patch
    expect(datasetCodeOnly(true, true, `${gold}diff --git a/build/sitecustomize.py b/build/sitecustomize.py\n`, gold)).toBe(false);
    expect(datasetCodeOnly(true, true, gold.trimEnd(), gold)).toBe(false);
  });

  it("fails whatever the patch when the start already held submitted code (Seq after a submitted patch)", () => {
    expect(datasetCodeOnly(false, false, "", gold)).toBe(false);
    expect(datasetCodeOnly(false, true, gold, gold)).toBe(false);
  });
});
