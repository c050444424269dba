/**
 * loadPredictions (SPEC §2) against the two fixture chains:
 *   acme__units__chain-001: acme__units-101 (order 1), acme__units-117 (order 2)
 *   acme__units__chain-002: acme__units-130 (order 1)
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { z } from "zod";
import { InputError, LimitError } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import type { predictionLineSchema } from "@/core/schemas/prediction";
import { loadDataset, sha256File } from "./dataset";
import { MAX_CHECKED_ISSUES, MAX_LISTED_ISSUES, loadPredictions, predictionLimitsFromEnv } from "./predictions";
import { readRecords } from "./records";

type LineInput = z.input<typeof predictionLineSchema>;

const C1 = "acme__units__chain-001";
const C2 = "acme__units__chain-002";
const SYSTEM = "acme-agent/claude-x/baseline";

/** An agent's fix for acme__units-101, as `git diff` prints it. */
const PATCH_101 = `diff --git a/units/convert.py b/units/convert.py
index 1fbabbd..2f6fe71 100644
--- a/units/convert.py
+++ b/units/convert.py
@@ -4 +4 @@
-    return fahrenheit - 32 * 5 / 9
+    return (fahrenheit - 32) * 5 / 9
`;

let chains: Chain[];
beforeAll(async () => {
  chains = (await loadDataset(new URL("../../tests/fixtures/inputs/units-chains.jsonl", import.meta.url).pathname)).chains;
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-predictions-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Objects are serialized; strings are written as a raw line. */
async function write(lines: (LineInput | Record<string, unknown> | string)[]): Promise<string> {
  const path = join(dir, "predictions.jsonl");
  await writeFile(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
}

async function inputError(path: string): Promise<InputError> {
  const err: unknown = await loadPredictions(path, chains).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

const line = (over: Partial<LineInput> & Record<string, unknown>): LineInput => ({
  continuous_id: C1,
  swebench_instance_id: "acme__units-101",
  model_patch: PATCH_101,
  ...over,
});

describe("loadPredictions: accepted submissions", () => {
  it("indexes lines by chain and order, with the instance_id alias and null patches", async () => {
    const path = await write([
      line({ model_name_or_path: SYSTEM, order: 1, cost_usd: 0.42, input_tokens: 12000, output_tokens: 900, turns: 7 }),
      { continuous_id: C1, instance_id: "acme__units-117", model_patch: "", model_name_or_path: SYSTEM },
      { continuous_id: C2, swebench_instance_id: "acme__units-130", model_patch: null, model_name_or_path: SYSTEM },
    ]);
    const p = await loadPredictions(path, chains);
    expect(p.system).toBe(SYSTEM);
    expect(p.warnings).toEqual([]);
    expect([...p.byChain.keys()]).toEqual([C1, C2]);
    expect(p.byChain.get(C1)?.get(1)).toEqual({
      continuous_id: C1,
      swebench_instance_id: "acme__units-101",
      model_patch: PATCH_101,
      model_name_or_path: SYSTEM,
      order: 1,
      cost_usd: 0.42,
      input_tokens: 12000,
      output_tokens: 900,
      turns: 7,
    });
    // instance_id is folded into swebench_instance_id and dropped
    expect(p.byChain.get(C1)?.get(2)).toEqual({ continuous_id: C1, swebench_instance_id: "acme__units-117", model_patch: "", model_name_or_path: SYSTEM });
    expect(p.byChain.get(C2)?.get(1)?.model_patch).toBe("");
  });

  it("leaves missing bugs (and whole chains) absent", async () => {
    const p = await loadPredictions(await write([line({ swebench_instance_id: "acme__units-117" })]), chains);
    expect([...p.byChain.keys()]).toEqual([C1]);
    expect([...(p.byChain.get(C1)?.keys() ?? [])]).toEqual([2]);
  });

  it("has no system when no line carries model_name_or_path", async () => {
    expect((await loadPredictions(await write([line({})]), chains)).system).toBeNull();
  });

  it("accepts an empty file as a submission of empty patches", async () => {
    const p = await loadPredictions(await write([]), chains);
    expect(p.byChain.size).toBe(0);
    expect(p.system).toBeNull();
  });

  it("accepts a JSON array too", async () => {
    const path = join(dir, "predictions.json");
    await writeFile(path, JSON.stringify([line({ model_patch: "" })]));
    expect((await loadPredictions(path, chains)).byChain.get(C1)?.get(1)?.model_patch).toBe("");
  });

  it("ignores unknown fields with one warning naming all of them", async () => {
    const path = await write([
      line({ model_name: "claude", trajectory: ["..."] }),
      line({ swebench_instance_id: "acme__units-117", model_name: "claude", exit_status: "submitted" }),
    ]);
    const p = await loadPredictions(path, chains);
    expect(p.warnings).toEqual([`${path}: ignored unknown field(s): exit_status, model_name, trajectory`]);
  });
});

describe("loadPredictions: rejected lines name the line and field", () => {
  it("a model_patch that is not a unified diff", async () => {
    const err = await inputError(await write([line({ model_patch: "I changed to_celsius to subtract 32 first." })]));
    expect(err.issues).toEqual([{ line: 1, field: "model_patch", message: "not a unified diff (or empty)" }]);
  });

  it("a negative cost, with the field named", async () => {
    const err = await inputError(await write([line({}), line({ swebench_instance_id: "acme__units-117", cost_usd: -0.01 })]));
    expect(err.issues).toEqual([{ line: 2, field: "cost_usd", message: "Too small: expected number to be >=0" }]);
    expect(err.message).toContain("line 2, field cost_usd: Too small");
  });

  it("an unknown chain id", async () => {
    const err = await inputError(await write([line({ continuous_id: "acme__units__chain-999" })]));
    expect(err.issues).toEqual([{ line: 1, field: "continuous_id", message: "unknown chain acme__units__chain-999" }]);
  });

  it("an instance id that is not in the named chain (even if it is in another)", async () => {
    const err = await inputError(await write([line({ swebench_instance_id: "acme__units-130" })]));
    expect(err.issues).toEqual([{ line: 1, field: "swebench_instance_id", message: `unknown instance acme__units-130 in chain ${C1}` }]);
  });

  it("an order that does not match the dataset", async () => {
    const err = await inputError(await write([line({ swebench_instance_id: "acme__units-117", order: 1 })]));
    expect(err.issues).toEqual([{ line: 1, field: "order", message: "is 1 but the dataset puts acme__units-117 at 2" }]);
  });

  it("no instance id at all, or two that disagree", async () => {
    const err = await inputError(
      await write([
        { continuous_id: C1, model_patch: "" },
        { continuous_id: C1, swebench_instance_id: "acme__units-101", instance_id: "acme__units-117", model_patch: "" },
      ]),
    );
    expect(err.issues).toEqual([
      { line: 1, field: "swebench_instance_id", message: "required (or instance_id)" },
      { line: 2, field: "instance_id", message: "differs from swebench_instance_id" },
    ]);
  });

  it("a duplicate prediction names the first line, alias or not", async () => {
    const err = await inputError(
      await write([
        line({}),
        line({ swebench_instance_id: "acme__units-117" }),
        { continuous_id: C1, instance_id: "acme__units-101", model_patch: "" },
      ]),
    );
    expect(err.issues).toEqual([{ line: 3, field: "swebench_instance_id", message: "duplicate prediction for acme__units-101 (first on line 1)" }]);
  });

  it("a model_name_or_path that differs from the first one", async () => {
    const err = await inputError(
      await write([
        line({ model_name_or_path: SYSTEM }),
        line({ swebench_instance_id: "acme__units-117" }), // absent is fine
        line({ continuous_id: C2, swebench_instance_id: "acme__units-130", model_name_or_path: "acme-agent/claude-x/summarize" }),
      ]),
    );
    expect(err.issues).toEqual([
      { line: 3, field: "model_name_or_path", message: `"acme-agent/claude-x/summarize" differs from "${SYSTEM}" on line 1` },
    ]);
  });

  it("lists every bad line, malformed JSON included", async () => {
    const path = await write([line({ cost_usd: -1 }), "{\"continuous_id\":", line({ continuous_id: "nope" })]);
    const err = await inputError(path);
    expect(err.issues.map((i) => `${i.line}:${i.field}`)).toEqual(["1:cost_usd", "2:", "3:continuous_id"]);
    expect(err.message.split("\n")[0]).toBe(`${path}: 3 problem(s)`);
  });
});

describe("loadPredictions: size limits", () => {
  it("names the line and field of a model_patch over the per-patch limit, counting UTF-8 bytes", async () => {
    const big = PATCH_101 + `+# ${"é".repeat(600)}\n`; // 600 two-byte characters
    const path = await write([line({}), line({ swebench_instance_id: "acme__units-117", model_patch: big })]);
    const err = await loadPredictions(path, chains, { maxPatchBytes: 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).issues).toEqual([{ line: 2, field: "model_patch", message: expect.stringMatching(/^is 1\.\d KB, over the 1 KB limit per patch$/) }]);
    // without the limit (the evaluator's own commands) the same file loads
    expect((await loadPredictions(path, chains)).byChain.get(C1)?.size).toBe(2);
  });

  it("refuses a file over the upload limit while reading it, not after", async () => {
    const path = await write(Array.from({ length: 400 }, () => line({ model_patch: PATCH_101 + `+${"x".repeat(5000)}\n` })));
    const err = await loadPredictions(path, chains, { maxFileBytes: 64 * 1024 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitError);
    expect(err).toMatchObject({ status: 413, field: "predictions", message: "the file is larger than the 64 KB limit" });
    let seen = 0;
    const reading = (async () => {
      for await (const _ of readRecords(path, { maxBytes: 64 * 1024, onChunk: (c) => (seen += c.length) })) void _;
    })();
    await expect(reading).rejects.toBeInstanceOf(LimitError);
    expect(seen).toBeLessThan(2 * 1024 * 1024); // the 2 MB file was not read to the end
  });

  it("takes the portal's limits from the environment's units", () => {
    expect(predictionLimitsFromEnv({ CHAINSWE_MAX_UPLOAD_MB: 100, CHAINSWE_MAX_PATCH_KB: 2048 })).toEqual({
      maxFileBytes: 100 * 1024 * 1024,
      maxPatchBytes: 2048 * 1024,
    });
  });
});

describe("loadPredictions: reading", () => {
  it("hashes the file in the same pass, and reads CRLF lines and characters split across read chunks", async () => {
    // put a two-byte "é" across the 1 MB boundary of the reader's chunks
    const template = JSON.stringify(line({ model_patch: `${PATCH_101}+MARK\n` }));
    const before = Buffer.byteLength(template.slice(0, template.indexOf("MARK")));
    const patch1 = `${PATCH_101}+${"y".repeat((1 << 20) - 1 - before)}é\n`;
    const first = JSON.stringify(line({ model_patch: patch1 }));
    expect(Buffer.from(first).subarray((1 << 20) - 1, (1 << 20) + 1).toString()).toBe("é");
    const patch2 = `${PATCH_101}+ü€😀\n`;
    const second = JSON.stringify(line({ swebench_instance_id: "acme__units-117", model_patch: patch2 }));
    const path = join(dir, "crlf.jsonl");
    await writeFile(path, `${first}\r\n${second}\r\n`);
    const p = await loadPredictions(path, chains);
    expect(p.sha256).toBe(await sha256File(path));
    expect(p.byChain.get(C1)?.get(1)?.model_patch).toBe(patch1);
    expect(p.byChain.get(C1)?.get(2)?.model_patch).toBe(patch2);
  });

  it("lists the first problems of a file full of them and counts the rest", async () => {
    const path = await write(Array.from({ length: MAX_LISTED_ISSUES + 50 }, () => "not json"));
    const err = await inputError(path);
    expect(err.issues).toHaveLength(MAX_LISTED_ISSUES + 1);
    expect(err.issues.at(-1)).toEqual({ line: MAX_LISTED_ISSUES + 1, field: "", message: "50 more problem(s) from this line on are not listed" });
  });

  it("stops reading after a bounded number of problems and says where (a million bad lines cost no more)", async () => {
    const path = await write(Array.from({ length: MAX_CHECKED_ISSUES + 500 }, () => "{}"));
    const err = await inputError(path);
    expect(err.issues.at(-1)?.message).toMatch(/^checking stopped after 10000 problems/);
    const stopped = err.issues.at(-1)!.line;
    expect(stopped).toBeGreaterThan(MAX_CHECKED_ISSUES / 10);
    expect(stopped).toBeLessThanOrEqual(MAX_CHECKED_ISSUES + 1);
  });
});
