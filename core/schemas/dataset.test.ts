/**
 * chainSchema / bugSchema (SPEC §1) on one realistic record: the two-bug
 * `acme/units` chain in tests/fixtures/inputs/units-chains.jsonl, whose patches
 * are real `git diff` output that applies in order on the base tree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { fieldPath } from "@/evaluator/dataset";
import { bugSchema, chainSchema, KNOWN_BUG_FIELDS, KNOWN_CHAIN_FIELDS } from "./dataset";

type ChainInput = z.input<typeof chainSchema>;
type BugInput = z.input<typeof bugSchema>;

const FIXTURE = new URL("../../tests/fixtures/inputs/units-chains.jsonl", import.meta.url);
const [LINE_1 = "", LINE_2 = ""] = readFileSync(FIXTURE, "utf8").split("\n");

/** A fresh copy of the fixture's first chain (two bugs, arrays everywhere). */
const chainOne = (): ChainInput => JSON.parse(LINE_1) as ChainInput;
/** A fresh copy of the second chain (one bug, SWE-bench style JSON-string test lists). */
const chainTwo = (): ChainInput => JSON.parse(LINE_2) as ChainInput;

function bugAt(chain: ChainInput, i: number): BugInput {
  const bug = chain.bug_fixes[i];
  if (!bug) throw new Error(`fixture has no bug_fixes[${i}]`);
  return bug;
}

/** Issues as "field: message", the way loadDataset reports them. */
function issuesOf(value: unknown): string[] {
  const parsed = chainSchema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((i) => `${fieldPath(i.path)}: ${i.message}`);
}

describe("chainSchema: a valid chain", () => {
  it("parses the fixture chain, normalizing nothing that is already canonical", () => {
    const chain = chainSchema.parse(chainOne());
    expect(chain.continuous_id).toBe("acme__units__chain-001");
    expect(chain.repo).toBe("acme/units");
    expect(chain.bug_fixes.map((b) => [b.order, b.swebench_instance_id])).toEqual([
      [1, "acme__units-101"],
      [2, "acme__units-117"],
    ]);
    expect(chain.bug_fixes[0]?.FAIL_TO_PASS).toEqual(["tests/test_convert.py::test_to_celsius"]);
    expect(chain.bug_fixes[0]?.test_cmds).toEqual(["pytest -rA tests/test_convert.py"]);
    expect(chain.bug_fixes[0]?.patch).toMatch(/^diff --git a\/units\/convert\.py b\/units\/convert\.py\n/);
  });

  it("defaults log_parser to pytest and keeps an explicit one", () => {
    expect(chainSchema.parse(chainOne()).log_parser).toBe("pytest");
    expect(chainSchema.parse({ ...chainOne(), log_parser: "unittest" }).log_parser).toBe("unittest");
  });

  it("accepts FAIL_TO_PASS / PASS_TO_PASS as JSON-encoded strings (as SWE-bench ships them)", () => {
    const bug = chainSchema.parse(chainTwo()).bug_fixes[0];
    expect(bug?.FAIL_TO_PASS).toEqual(["tests/test_length.py::test_inches_to_cm"]);
    expect(bug?.PASS_TO_PASS).toEqual([]);
  });

  it("normalizes test_cmds: a string becomes a one-item list, a list is kept in order", () => {
    expect(chainSchema.parse(chainTwo()).bug_fixes[0]?.test_cmds).toEqual(["pytest -rA tests/test_length.py"]);
    const two = chainOne();
    bugAt(two, 0).test_cmds = ["pip install -e .", "pytest -rA tests/test_convert.py"];
    expect(chainSchema.parse(two).bug_fixes[0]?.test_cmds).toEqual(["pip install -e .", "pytest -rA tests/test_convert.py"]);
  });

  it("keeps unknown chain-level and bug-level fields (they are warned about by the loader)", () => {
    const raw = chainOne();
    raw.difficulty = "hard";
    bugAt(raw, 1).hints_text = "see #116";
    const chain = chainSchema.parse(raw);
    expect(chain.difficulty).toBe("hard");
    expect(chain.bug_fixes[1]?.hints_text).toBe("see #116");
  });

  it("knows exactly the SPEC §1 fields (plus log_parser)", () => {
    expect([...KNOWN_CHAIN_FIELDS].sort()).toEqual(
      ["base_commit", "bug_fixes", "continuous_id", "date_range", "docker_image", "log_parser", "repo", "source", "swebench_instance_ids"],
    );
    expect([...KNOWN_BUG_FIELDS].sort()).toEqual(
      ["FAIL_TO_PASS", "PASS_TO_PASS", "commit_hash", "date", "order", "patch", "problem_statement", "source", "swebench_instance_id", "test_cmds", "test_patch"],
    );
  });
});

describe("chainSchema: rejected records name the field", () => {
  it("a missing field", () => {
    const raw = chainOne();
    delete (raw as Partial<ChainInput>).docker_image;
    delete (bugAt(raw, 0) as Partial<BugInput>).patch;
    expect(issuesOf(raw)).toEqual([
      "docker_image: Invalid input: expected string, received undefined",
      "bug_fixes[0].patch: Invalid input: expected string, received undefined",
    ]);
  });

  it("wrong types", () => {
    const raw = chainOne() as Record<string, unknown> & ChainInput;
    Object.assign(raw, { swebench_instance_ids: "acme__units-101" });
    Object.assign(bugAt(raw, 1), { order: "2" });
    expect(issuesOf(raw)).toEqual([
      "swebench_instance_ids: Invalid input: expected array, received string",
      "bug_fixes[1].order: Invalid input: expected number, received string",
    ]);
  });

  it("a record that is not an object at all", () => {
    expect(issuesOf(42)).toEqual([": Invalid input: expected object, received number"]);
  });

  it("a repo that is not owner/name", () => {
    expect(issuesOf({ ...chainOne(), repo: "units" })).toEqual(["repo: expected owner/name"]);
  });

  it("bug orders that are not 1..n: each out-of-place order is named", () => {
    const raw = chainOne();
    bugAt(raw, 1).order = 3;
    expect(issuesOf(raw)).toEqual(["bug_fixes[1].order: bug orders must be 1..2 in sequence; expected 2, got 3"]);

    const swapped = chainOne();
    bugAt(swapped, 0).order = 2;
    bugAt(swapped, 1).order = 1;
    expect(issuesOf(swapped)).toEqual([
      "bug_fixes[0].order: bug orders must be 1..2 in sequence; expected 1, got 2",
      "bug_fixes[1].order: bug orders must be 1..2 in sequence; expected 2, got 1",
    ]);
  });

  it("order 0 is neither positive nor in sequence", () => {
    const raw = chainOne();
    bugAt(raw, 0).order = 0;
    expect(issuesOf(raw)).toEqual([
      "bug_fixes[0].order: Too small: expected number to be >0",
      "bug_fixes[0].order: bug orders must be 1..2 in sequence; expected 1, got 0",
    ]);
  });

  it("swebench_instance_ids that do not list the bugs' ids in order", () => {
    const reversed = { ...chainOne(), swebench_instance_ids: ["acme__units-117", "acme__units-101"] };
    expect(issuesOf(reversed)).toEqual(["swebench_instance_ids: must list the bug_fixes' swebench_instance_id values in order"]);
    const short = { ...chainOne(), swebench_instance_ids: ["acme__units-101"] };
    expect(issuesOf(short)).toEqual(["swebench_instance_ids: must list the bug_fixes' swebench_instance_id values in order"]);
  });

  it("the same instance id twice in one chain", () => {
    const raw = chainOne();
    bugAt(raw, 1).swebench_instance_id = "acme__units-101";
    raw.swebench_instance_ids = ["acme__units-101", "acme__units-101"];
    expect(issuesOf(raw)).toEqual(["bug_fixes[1].swebench_instance_id: duplicate instance id acme__units-101"]);
  });

  it("a patch or test patch that is not a unified diff", () => {
    const raw = chainOne();
    bugAt(raw, 0).patch = "Fix: parenthesise (fahrenheit - 32) in to_celsius";
    bugAt(raw, 1).test_patch = "";
    expect(issuesOf(raw)).toEqual(["bug_fixes[0].patch: not a unified diff", "bug_fixes[1].test_patch: not a unified diff"]);
  });

  it("test lists that are neither arrays nor JSON strings of string arrays", () => {
    const raw = chainTwo();
    bugAt(raw, 0).FAIL_TO_PASS = "tests/test_length.py::test_inches_to_cm"; // a bare id, not JSON
    bugAt(raw, 0).PASS_TO_PASS = "[1, 2]";
    const issues = issuesOf(raw);
    expect(issues.map((i) => i.split(":")[0])).toEqual(["bug_fixes[0].FAIL_TO_PASS", "bug_fixes[0].PASS_TO_PASS[0]", "bug_fixes[0].PASS_TO_PASS[1]"]);
    expect(issues[0]).toBe("bug_fixes[0].FAIL_TO_PASS: expected an array of test ids or a JSON string of one");
  });

  it("empty test_cmds, as a string or as a list", () => {
    const raw = chainOne();
    bugAt(raw, 0).test_cmds = "";
    bugAt(raw, 1).test_cmds = [];
    expect(issuesOf(raw)).toEqual([
      "bug_fixes[0].test_cmds: Too small: expected string to have >=1 characters",
      "bug_fixes[1].test_cmds: Too small: expected array to have >=1 items",
    ]);
  });
});
