/** The failure page's labels and marks: overshoot/undershoot per agent patch, and why a bug is not a chain error. */
import { describe, expect, it } from "vitest";
import { fileMark, fileSetRows, filesMarked, notChainErrorReason } from "@/lib/submissions/failure-view";

describe("file sets", () => {
  it("marks agent-only files overshoot and gold-only files undershoot, per agent", () => {
    expect([fileMark(true, true), fileMark(true, false), fileMark(false, true), fileMark(false, false)]).toEqual(["matched", "overshoot", "undershoot", null]);
    const rows = fileSetRows(["pkg/money.py"], [["pkg/currency.py", "pkg/money.py"], []]);
    expect(rows).toEqual([
      { file: "pkg/currency.py", gold: false, marks: ["overshoot", null] },
      { file: "pkg/money.py", gold: true, marks: ["matched", "undershoot"] },
    ]);
    expect(filesMarked(rows, 0, "overshoot")).toEqual(["pkg/currency.py"]);
    expect(filesMarked(rows, 1, "undershoot")).toEqual(["pkg/money.py"]);
  });
});

describe("chain errors", () => {
  it("says why a bug is not one", () => {
    expect(notChainErrorReason(1, true, false)).toMatch(/first bug/);
    expect(notChainErrorReason(2, null, false)).toMatch(/both modes/);
    expect(notChainErrorReason(2, true, true)).toMatch(/Resolved under Seq/);
    expect(notChainErrorReason(2, false, false)).toMatch(/Unresolved under Oracle/);
    expect(notChainErrorReason(3, true, false)).toBeNull();
  });
});
