/**
 * loadDataset (SPEC §1): JSONL and JSON-array files, whole-file validation, and
 * errors that name the line and field. Variants of the fixture
 * tests/fixtures/inputs/units-chains.jsonl are written to a temp dir per test.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { InputError } from "@/core/errors";
import type { bugSchema, chainSchema } from "@/core/schemas/dataset";
import { loadDataset } from "./dataset";

type ChainInput = z.input<typeof chainSchema>;
type BugInput = z.input<typeof bugSchema>;

const JSONL = new URL("../../tests/fixtures/inputs/units-chains.jsonl", import.meta.url).pathname;
const JSON_ARRAY = new URL("../../tests/fixtures/inputs/units-chains.json", import.meta.url).pathname;
const C1 = "acme__units__chain-001";
const C2 = "acme__units__chain-002";

/** Fresh copies of the fixture's two chains. */
async function fixtureChains(): Promise<[ChainInput, ChainInput]> {
  const [a, b] = (await readFile(JSONL, "utf8")).trim().split("\n");
  return [JSON.parse(a ?? "") as ChainInput, JSON.parse(b ?? "") as ChainInput];
}

function bugAt(chain: ChainInput, i: number): BugInput {
  const bug = chain.bug_fixes[i];
  if (!bug) throw new Error(`no bug_fixes[${i}]`);
  return bug;
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-dataset-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes JSONL: objects are serialized, strings are written verbatim as a line. */
async function writeJsonl(lines: (ChainInput | string)[]): Promise<string> {
  const path = join(dir, "dataset.jsonl");
  await writeFile(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
}

async function inputError(path: string): Promise<InputError> {
  const err: unknown = await loadDataset(path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

describe("loadDataset: valid files", () => {
  it("loads the JSONL fixture: both chains, normalized, hashed, no warnings", async () => {
    const ds = await loadDataset(JSONL);
    expect(ds.path).toBe(JSONL);
    expect(ds.sha256).toBe(createHash("sha256").update(await readFile(JSONL)).digest("hex"));
    expect(ds.warnings).toEqual([]);
    expect(ds.chains.map((c) => [c.continuous_id, c.bug_fixes.length, c.log_parser])).toEqual([
      [C1, 2, "pytest"],
      [C2, 1, "pytest"],
    ]);
    // chain 2 ships SWE-bench style: JSON-encoded test lists and a single test command
    expect(ds.chains[1]?.bug_fixes[0]?.FAIL_TO_PASS).toEqual(["tests/test_length.py::test_inches_to_cm"]);
    expect(ds.chains[1]?.bug_fixes[0]?.PASS_TO_PASS).toEqual([]);
    expect(ds.chains[1]?.bug_fixes[0]?.test_cmds).toEqual(["pytest -rA tests/test_length.py"]);
    expect(ds.chains[0]?.bug_fixes[1]?.test_cmds).toEqual(["pytest -rA tests/test_convert.py"]);
  });

  it("loads the same chains from a JSON array", async () => {
    const fromArray = await loadDataset(JSON_ARRAY);
    const fromLines = await loadDataset(JSONL);
    expect(fromArray.chains).toEqual(fromLines.chains);
    expect(fromArray.sha256).not.toBe(fromLines.sha256);
  });

  it("skips blank lines and accepts CRLF line endings", async () => {
    const [c1, c2] = await fixtureChains();
    const path = join(dir, "crlf.jsonl");
    await writeFile(path, `${JSON.stringify(c1)}\r\n\r\n${JSON.stringify(c2)}\r\n`);
    expect((await loadDataset(path)).chains.map((c) => c.continuous_id)).toEqual([C1, C2]);
  });

  it("keeps unknown fields and names them in warnings, chain-level and bug-level", async () => {
    const [c1, c2] = await fixtureChains();
    c1.difficulty = "hard";
    c1.notes = "curated";
    bugAt(c1, 1).hints_text = "see #116";
    bugAt(c2, 0).created_at = "2023-06-20T10:00:00Z";
    const ds = await loadDataset(await writeJsonl([c1, c2]));
    expect(ds.warnings).toEqual([
      `line 1 (${C1}): unknown chain field(s) kept: difficulty, notes`,
      `line 1 (${C1}), bug_fixes[1]: unknown field(s) kept: hints_text`,
      `line 2 (${C2}), bug_fixes[0]: unknown field(s) kept: created_at`,
    ]);
    expect(ds.chains[0]?.difficulty).toBe("hard");
    expect(ds.chains[0]?.bug_fixes[1]?.hints_text).toBe("see #116");
    expect(ds.chains[1]?.bug_fixes[0]?.created_at).toBe("2023-06-20T10:00:00Z");
  });
});

describe("loadDataset: rejected records name the line and field", () => {
  it("a missing field", async () => {
    const [c1, c2] = await fixtureChains();
    delete (bugAt(c2, 0) as Partial<BugInput>).test_patch;
    const err = await inputError(await writeJsonl([c1, c2]));
    expect(err.issues).toEqual([
      { line: 2, id: C2, field: "bug_fixes[0].test_patch", message: "Invalid input: expected string, received undefined" },
    ]);
    expect(err.message).toContain(`line 2 (${C2}), field bug_fixes[0].test_patch: Invalid input: expected string, received undefined`);
  });

  it("a wrong type", async () => {
    const [c1, c2] = await fixtureChains();
    Object.assign(c1, { docker_image: 101 });
    const err = await inputError(await writeJsonl([c1, c2]));
    expect(err.issues).toEqual([{ line: 1, id: C1, field: "docker_image", message: "Invalid input: expected string, received number" }]);
  });

  it("bug orders 1,3: names bug_fixes[1].order and the line", async () => {
    const [c1, c2] = await fixtureChains();
    bugAt(c1, 1).order = 3;
    const err = await inputError(await writeJsonl([c2, c1]));
    expect(err.issues).toEqual([
      { line: 2, id: C1, field: "bug_fixes[1].order", message: "bug orders must be 1..2 in sequence; expected 2, got 3" },
    ]);
    expect(err.message).toContain(`line 2 (${C1}), field bug_fixes[1].order:`);
  });

  it("in a JSON array, the record number stands in for the line", async () => {
    const [c1, c2] = await fixtureChains();
    bugAt(c1, 1).order = 3;
    const path = join(dir, "dataset.json");
    await writeFile(path, JSON.stringify([c2, c1], null, 2));
    const err = await inputError(path);
    expect(err.issues.map((i) => [i.line, i.field])).toEqual([[2, "bug_fixes[1].order"]]);
  });

  it("a log parser no registry entry answers to", async () => {
    const [c1, c2] = await fixtureChains();
    Object.assign(c2, { log_parser: "jest" });
    Object.assign(c1, { log_parser: "parse_log_django" });
    const err = await inputError(await writeJsonl([c1, c2]));
    expect(err.issues.map((i) => [i.line, i.id, i.field])).toEqual([[2, C2, "log_parser"]]);
    expect(err.message).toContain(`line 2 (${C2}), field log_parser: unknown log parser "jest"; known parsers: pytest, pytest-verbose`);
  });

  it("a chain id already used on an earlier line", async () => {
    const [c1, c2] = await fixtureChains();
    const err = await inputError(await writeJsonl([c1, c2, c1]));
    expect(err.issues).toEqual([{ line: 3, id: C1, field: "continuous_id", message: "duplicate chain id (first on line 1)" }]);
  });

  it("the same instance id in two chains", async () => {
    const [c1, c2] = await fixtureChains();
    bugAt(c2, 0).swebench_instance_id = "acme__units-117";
    c2.swebench_instance_ids = ["acme__units-117"];
    const err = await inputError(await writeJsonl([c1, c2]));
    expect(err.issues).toEqual([
      { line: 2, id: C2, field: "bug_fixes[0].swebench_instance_id", message: `instance acme__units-117 already belongs to chain ${C1}` },
    ]);
  });

  it("swebench_instance_ids that do not match bug_fixes", async () => {
    const [c1, c2] = await fixtureChains();
    c1.swebench_instance_ids = ["acme__units-117", "acme__units-101"];
    const err = await inputError(await writeJsonl([c1, c2]));
    expect(err.issues).toEqual([
      { line: 1, id: C1, field: "swebench_instance_ids", message: "must list the bug_fixes' swebench_instance_id values in order" },
    ]);
  });

  it("a patch that is not a unified diff", async () => {
    const [c1, c2] = await fixtureChains();
    bugAt(c1, 0).patch = "units/convert.py: return (fahrenheit - 32) * 5 / 9";
    const err = await inputError(await writeJsonl([c1, c2]));
    expect(err.issues).toEqual([{ line: 1, id: C1, field: "bug_fixes[0].patch", message: "not a unified diff" }]);
  });

  it("a malformed JSON line, counted with blank lines", async () => {
    const [c1] = await fixtureChains();
    const err = await inputError(await writeJsonl([c1, "", `{"continuous_id": "${C2}", "repo": "acme/units",`]));
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]).toMatchObject({ line: 3, field: "" });
    expect(err.issues[0]?.message).toMatch(/^malformed JSON: /);
    expect(err.message).toMatch(/\n {2}line 3: malformed JSON: /);
  });

  it("a malformed JSON array is a problem named by the element where it breaks (elements are parsed one by one)", async () => {
    const path = join(dir, "dataset.json");
    await writeFile(path, `[{"continuous_id": "${C1}"},`);
    const err = await inputError(path);
    expect(err.issues.at(-1)).toMatchObject({ line: 2, field: "", message: "malformed JSON array: it does not end with ]" });
  });

  it.each([
    ["an empty file", ""],
    ["a whitespace-only file", "\n  \n"],
    ["an empty JSON array", "[]\n"],
  ])("%s has no chains", async (_name, text) => {
    const path = join(dir, "empty.jsonl");
    await writeFile(path, text);
    const err = await inputError(path);
    expect(err.issues).toEqual([{ line: 1, field: "", message: "no chains in file" }]);
    expect(err.message).toBe(`${path}: 1 problem(s)\n  line 1: no chains in file`);
  });
});

describe("loadDataset: InputError lists every problem", () => {
  it("collects problems from every line, and loads nothing", async () => {
    const [c1, c2] = await fixtureChains();
    const badOrder = structuredClone(c2);
    bugAt(badOrder, 0).order = 2;
    badOrder.continuous_id = "acme__units__chain-003";
    const path = await writeJsonl([c1, "{not json", badOrder, c1]);
    const err = await inputError(path);
    expect(err.source).toBe(path);
    expect(err.issues.map((i) => `${i.line} ${i.field}`)).toEqual(["2 ", "3 bug_fixes[0].order", "4 continuous_id"]);
    const lines = err.message.split("\n");
    expect(lines[0]).toBe(`${path}: 3 problem(s)`);
    expect(lines[1]).toMatch(/^ {2}line 2: malformed JSON: /);
    expect(lines[2]).toBe("  line 3 (acme__units__chain-003), field bug_fixes[0].order: bug orders must be 1..1 in sequence; expected 1, got 2");
    expect(lines[3]).toBe(`  line 4 (${C1}), field continuous_id: duplicate chain id (first on line 1)`);
  });

  it("shows the first 20 problems and counts the rest", async () => {
    const path = await writeJsonl(Array.from({ length: 23 }, () => "{"));
    const err = await inputError(path);
    expect(err.issues).toHaveLength(23);
    const lines = err.message.split("\n");
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[20]).toMatch(/^ {2}line 20: malformed JSON/);
    expect(lines[21]).toBe("  … and 3 more");
  });
});
