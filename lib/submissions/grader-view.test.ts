import { describe, expect, it } from "vitest";
import { graderLabel, graderUses } from "@/lib/submissions/grader-view";

describe("graderUses", () => {
  it("counts the bugs of each distinct grader, most used first, old results apart", () => {
    const v1 = { graderVersion: "1.0.0", packageVersion: "0.1.0", logParser: "pytest" };
    const old = { graderVersion: null, packageVersion: null, logParser: null };
    const uses = graderUses([old, v1, v1, { ...v1, logParser: "django" }, v1]);
    expect(uses).toEqual([
      { ...v1, bugs: 3 },
      { ...old, bugs: 1 },
      { ...v1, logParser: "django", bugs: 1 },
    ]);
  });
});

describe("graderLabel", () => {
  it("names the version, package and parser", () => {
    expect(graderLabel({ graderVersion: "1.2.0", packageVersion: "0.1.0", logParser: "sympy" })).toBe("grader 1.2.0 (chainswe 0.1.0, parser sympy)");
  });

  it("says when a result predates grader versions", () => {
    expect(graderLabel({ graderVersion: null, packageVersion: null, logParser: null })).toMatch(/before grader versions/);
  });
});
