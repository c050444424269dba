/**
 * Gold replay verdicts (`validate`, SPEC §3): a chain is valid only when every
 * bug was graded resolved under gold and no error stands against it.
 */
import { describe, expect, it } from "vitest";
import { gradedBug } from "@/core/scoring/test-fixtures";
import { loadDataset } from "@/evaluator/dataset";
import type { GradedBug, RunError } from "@/core/schemas/results";
import { GOLD_SYSTEM, goldPredictions, validationVerdicts } from "./gold";

const graded = (continuous_id: string, order: number, over: Partial<GradedBug> = {}): GradedBug =>
  gradedBug("oracle", GOLD_SYSTEM, { continuous_id, order, resolved: true, swebench_instance_id: `${continuous_id}-${order}`, ...over });

const error = (continuous_id: string, over: Partial<RunError> = {}): RunError => ({
  kind: "dataset",
  continuous_id,
  message: "test patch does not apply:\nerror: patch failed: tests/test_convert.py:1",
  at: "2026-01-01T00:00:00Z",
  ...over,
});

describe("validationVerdicts", () => {
  it("accepts a chain whose every bug resolved under gold", () => {
    expect(validationVerdicts(["c1"], [graded("c1", 1), graded("c1", 2)], [])).toEqual([{ continuous_id: "c1", ok: true, problems: [] }]);
  });

  it("rejects a chain that was never graded", () => {
    expect(validationVerdicts(["c1"], [], [])).toEqual([{ continuous_id: "c1", ok: false, problems: ["not graded"] }]);
  });

  it("reports the first line of each standing error, with the bug when known", () => {
    const errors = [error("c1", { order: 2 }), error("c1", { kind: "environment", message: "image swerebench/x not found" }), error("c2")];
    expect(validationVerdicts(["c1"], [], errors)).toEqual([
      {
        continuous_id: "c1",
        ok: false,
        problems: ["dataset error at bug 2: test patch does not apply:", "environment error: image swerebench/x not found"],
      },
    ]);
  });

  it("ignores old errors once the chain has been graded (errors.jsonl keeps history)", () => {
    expect(validationVerdicts(["c1"], [graded("c1", 1)], [error("c1", { order: 1 })])).toEqual([{ continuous_id: "c1", ok: true, problems: [] }]);
  });

  it("names each unresolved bug with its fingerprint and up to five failing tests", () => {
    const failing = ["t1", "t2", "t3", "t4", "t5", "t6"];
    const bugs = [
      graded("c1", 1),
      graded("c1", 2, {
        resolved: false,
        fingerprint: "broke_working_code",
        fail_to_pass: { success: [], failure: ["t1", "t2"] },
        pass_to_pass: { success: ["ok"], failure: failing.slice(2) },
      }),
      graded("c1", 3, { resolved: false, fingerprint: "no_usable_patch" }),
    ];
    expect(validationVerdicts(["c1"], bugs, [])).toEqual([
      {
        continuous_id: "c1",
        ok: false,
        problems: [
          "bug 2 (c1-2) unresolved under gold: broke_working_code; failing: t1, t2, t3, t4, t5",
          "bug 3 (c1-3) unresolved under gold: no_usable_patch; failing: none listed",
        ],
      },
    ]);
  });

  it("gives one verdict per requested chain, in the order asked, each from its own bugs and errors", () => {
    const verdicts = validationVerdicts(["c2", "c1", "c3"], [graded("c1", 1), graded("c2", 1, { resolved: false, fingerprint: "left_unfixed" })], [error("c3")]);
    expect(verdicts.map((v) => [v.continuous_id, v.ok, v.problems.length])).toEqual([
      ["c2", false, 1],
      ["c1", true, 0],
      ["c3", false, 1],
    ]);
  });
});

describe("goldPredictions", () => {
  it("submits every bug's gold patch under the gold system", async () => {
    const dataset = await loadDataset(new URL("../../tests/fixtures/inputs/units-chains.jsonl", import.meta.url).pathname);
    const p = goldPredictions(dataset);
    expect(p.system).toBe(GOLD_SYSTEM);
    expect(p.path).toBe(`${dataset.path}#gold`);
    expect(p.sha256).toBe(dataset.sha256);
    expect([...p.byChain].map(([id, bugs]) => [id, [...bugs.keys()]])).toEqual([
      ["acme__units__chain-001", [1, 2]],
      ["acme__units__chain-002", [1]],
    ]);
    const second = dataset.chains[0]?.bug_fixes[1];
    expect(p.byChain.get("acme__units__chain-001")?.get(2)).toEqual({
      continuous_id: "acme__units__chain-001",
      swebench_instance_id: "acme__units-117",
      model_patch: second?.patch,
      model_name_or_path: GOLD_SYSTEM,
    });
  });
});
