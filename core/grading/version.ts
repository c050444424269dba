/**
 * Which grader produced a result (SPEC §7 "Grader version"): every graded bug records
 * the grader version, the package version, the canonical parser name and the sha256
 * of its dataset record and prediction line, so a result can be traced and re-checked
 * long after the run.
 *
 * GRADER_VERSION is kept here and only here, and bumped by hand (semantic versioning)
 * whenever a parser, the status rules, the fingerprints or the contradiction rule
 * change, i.e. whenever the same log could get a different verdict: major when a
 * verdict can flip for logs every parser reads the same way, minor for a new parser or
 * a parser reading more of a log, patch for changes no stored verdict can notice.
 * History: docs/DECISIONS.md "Grader version".
 */
import { createHash } from "node:crypto";
import { canonicalLogParser, unknownLogParserMessage } from "@/core/parsers";
import packageJson from "@/package.json";
import type { Chain } from "@/core/schemas/dataset";
import type { PredictionLine } from "@/core/schemas/prediction";

export const GRADER_VERSION = "1.1.0";

/** The chainswe package version (package.json), recorded beside the grader version. */
export const PACKAGE_VERSION: string = packageJson.version;

/** What every graded bug records about the grader and its inputs (results.jsonl field names). */
export type GraderProvenance = {
  grader_version: string;
  package_version: string;
  log_parser: string;
  /** sha256 of the chain's dataset record, as canonical JSON */
  record_sha256: string;
  /** sha256 of the bug's prediction line, as canonical JSON; null when the bug had none (an empty patch) */
  prediction_sha256: string | null;
};

/**
 * JSON with object keys sorted at every depth and no spaces: the same record gives the
 * same text wherever it was read from (a file line, a database row), so its hash can be
 * recomputed by anyone holding the record.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Hashes already computed: a chain's record is hashed once, not once per bug. */
const recordHashes = new WeakMap<Chain, string>();

export function recordSha256(chain: Chain): string {
  let hash = recordHashes.get(chain);
  if (hash === undefined) {
    hash = sha256Hex(canonicalJson(chain));
    recordHashes.set(chain, hash);
  }
  return hash;
}

export function predictionSha256(prediction: PredictionLine | undefined): string | null {
  return prediction ? sha256Hex(canonicalJson(prediction)) : null;
}

/** The canonical parser name a chain is graded with; throws for an unknown one (import rejects those). */
export function chainParserName(chain: Pick<Chain, "log_parser">): string {
  const name = canonicalLogParser(chain.log_parser);
  if (name === null) throw new Error(unknownLogParserMessage(chain.log_parser));
  return name;
}

export function graderProvenance(chain: Chain, prediction: PredictionLine | undefined): GraderProvenance {
  return {
    grader_version: GRADER_VERSION,
    package_version: PACKAGE_VERSION,
    log_parser: chainParserName(chain),
    record_sha256: recordSha256(chain),
    prediction_sha256: predictionSha256(prediction),
  };
}
