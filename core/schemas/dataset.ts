/**
 * The ChainSWE dataset record (SPEC §1): a chain and its ordered bugs.
 * One schema per record; types are inferred, never written twice.
 */
import { z } from "zod";
import { isUnifiedDiff } from "@/core/diff";
import { canonicalLogParser, unknownLogParserMessage } from "@/core/parsers";

/** SWE-bench ships test lists as JSON-encoded strings; accept both forms. */
const testIdList = z.preprocess(
  (value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  },
  z.array(z.string(), { error: "expected an array of test ids or a JSON string of one" }),
);

/** One command or several; normalized to a list run in order in one shell. */
const testCommands = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .transform((v) => (typeof v === "string" ? [v] : v));

const unifiedDiff = z.string().refine(isUnifiedDiff, { message: "not a unified diff" });

export const bugSchema = z.looseObject({
  order: z.number().int().positive(),
  swebench_instance_id: z.string().min(1),
  commit_hash: z.string(),
  problem_statement: z.string(),
  date: z.string(),
  source: z.string(),
  patch: unifiedDiff,
  test_patch: unifiedDiff,
  FAIL_TO_PASS: testIdList,
  PASS_TO_PASS: testIdList,
  test_cmds: testCommands,
});

export const chainSchema = z
  .looseObject({
    continuous_id: z.string().min(1),
    repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, "expected owner/name"),
    base_commit: z.string().min(1),
    source: z.string(),
    date_range: z.string(),
    docker_image: z.string().min(1),
    swebench_instance_ids: z.array(z.string().min(1)).min(1),
    bug_fixes: z.array(bugSchema).min(1),
    /** name of the test-log parser (core/parsers registry, SWE-bench names accepted); pytest by default */
    log_parser: z.string().default("pytest"),
  })
  .superRefine((chain, ctx) => {
    // caught at import, not at replay: a chain no parser can read could never be graded
    if (canonicalLogParser(chain.log_parser) === null) {
      ctx.addIssue({ code: "custom", path: ["log_parser"], message: unknownLogParserMessage(chain.log_parser) });
    }
    chain.bug_fixes.forEach((bug, i) => {
      if (bug.order !== i + 1) {
        ctx.addIssue({
          code: "custom",
          path: ["bug_fixes", i, "order"],
          message: `bug orders must be 1..${chain.bug_fixes.length} in sequence; expected ${i + 1}, got ${bug.order}`,
        });
      }
    });
    const ids = chain.bug_fixes.map((b) => b.swebench_instance_id);
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (seen.has(id)) {
        ctx.addIssue({ code: "custom", path: ["bug_fixes", i, "swebench_instance_id"], message: `duplicate instance id ${id}` });
      }
      seen.add(id);
    });
    if (chain.swebench_instance_ids.join("\n") !== ids.join("\n")) {
      ctx.addIssue({
        code: "custom",
        path: ["swebench_instance_ids"],
        message: "must list the bug_fixes' swebench_instance_id values in order",
      });
    }
  });

export type Bug = z.infer<typeof bugSchema>;
export type Chain = z.infer<typeof chainSchema>;

/** The fields SPEC §1 names; anything else is kept and named in a warning. */
export const KNOWN_CHAIN_FIELDS = new Set(Object.keys(chainSchema.shape));
export const KNOWN_BUG_FIELDS = new Set(Object.keys(bugSchema.shape));
