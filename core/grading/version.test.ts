import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import packageJson from "@/package.json";
import { chainSchema, type Chain } from "@/core/schemas/dataset";
import { gradedBugSchema } from "@/core/schemas/results";
import { canonicalJson, graderProvenance, GRADER_VERSION, PACKAGE_VERSION, predictionSha256, recordSha256, sha256Hex } from "./version";

const FIXTURE = new URL("../../tests/fixtures/inputs/units-chains.jsonl", import.meta.url);
const raw = () => JSON.parse(readFileSync(FIXTURE, "utf8").split("\n")[0]!) as Record<string, unknown>;
const chain = (over: Record<string, unknown> = {}): Chain => chainSchema.parse({ ...raw(), ...over });

describe("canonicalJson", () => {
  it("sorts keys at every depth and drops undefined, so key order never changes a hash", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
});

describe("graderProvenance", () => {
  it("records the grader and package versions, the canonical parser and both hashes", () => {
    const c = chain({ log_parser: "parse_log_django" });
    const prediction = { continuous_id: c.continuous_id, swebench_instance_id: c.bug_fixes[0]!.swebench_instance_id, model_name_or_path: "m", model_patch: "" };
    const p = graderProvenance(c, prediction);
    expect(p).toEqual({
      grader_version: GRADER_VERSION,
      package_version: packageJson.version,
      log_parser: "django",
      record_sha256: sha256Hex(canonicalJson(c)),
      prediction_sha256: sha256Hex(canonicalJson(prediction)),
    });
    expect(PACKAGE_VERSION).toBe(packageJson.version);
    expect(GRADER_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(gradedBugSchema.shape.record_sha256.parse(p.record_sha256)).toBe(p.record_sha256);
  });

  it("gives a bug without a prediction a null prediction hash", () => {
    expect(graderProvenance(chain(), undefined).prediction_sha256).toBeNull();
    expect(predictionSha256(undefined)).toBeNull();
  });

  it("hashes the record: the same record read twice agrees, a changed one does not", () => {
    expect(recordSha256(chain())).toBe(recordSha256(chain()));
    expect(recordSha256(chain())).not.toBe(recordSha256(chain({ base_commit: "0".repeat(40) })));
  });
});
