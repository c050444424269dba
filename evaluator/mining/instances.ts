/**
 * Task instances of the SWE-bench family (paper §3.1), one zod schema per source,
 * each normalized to the one `Instance` shape the miner works on: repo, instance id,
 * base commit, created date, patch, test patch, FAIL_TO_PASS, PASS_TO_PASS, test
 * command, image name, log parser.
 *
 * Where a source leaves a field out, the default is the one its own harness uses:
 * SWE-bench and SWE-Gym ship no test command (it lives in the harness's per-repo
 * specs), so the default runs pytest `-rA` on the files the test patch touches.
 */
import { z } from "zod";
import { touchedFiles } from "@/core/diff";
import { bugSchema } from "@/core/schemas/dataset";

export const SOURCES = ["SWE-bench", "SWE-rebench", "SWE-bench-Live", "SWE-Gym"] as const;
export const sourceSchema = z.enum(SOURCES);
export type Source = z.infer<typeof sourceSchema>;

const { FAIL_TO_PASS: testIds, patch: unifiedDiff } = bugSchema.shape;
const testCmds = bugSchema.shape.test_cmds;

/** Fields every source shares (SWE-bench's layout). */
const common = z.looseObject({
  instance_id: z.string().min(1),
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, "expected owner/name"),
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/, "expected a commit hash"),
  created_at: z.string().refine((s) => !Number.isNaN(Date.parse(s)), "expected a date"),
  patch: unifiedDiff,
  test_patch: unifiedDiff,
  problem_statement: z.string().default(""),
  /** the fix's merge commit, when the source records it */
  commit_hash: z.string().default(""),
  FAIL_TO_PASS: testIds,
  PASS_TO_PASS: testIds,
  /** the images these benchmarks publish are named in one of these fields, when at all */
  image_name: z.string().min(1).optional(),
  docker_image: z.string().min(1).optional(),
});

const sweBenchSchema = common.extend({ test_cmds: testCmds.optional(), log_parser: z.string().min(1).optional() });
const sweRebenchSchema = common.extend({
  install_config: z.looseObject({ test_cmd: testCmds, log_parser: z.string().min(1).default("pytest") }),
});
const sweBenchLiveSchema = common.extend({ test_cmds: testCmds, log_parser: z.string().min(1).default("pytest") });

export const INSTANCE_SCHEMAS = {
  "SWE-bench": sweBenchSchema,
  "SWE-rebench": sweRebenchSchema,
  "SWE-bench-Live": sweBenchLiveSchema,
  "SWE-Gym": sweBenchSchema,
} as const satisfies Record<Source, z.ZodType>;

/** The normalized instance. */
export const instanceSchema = z.object({
  source: sourceSchema,
  instance_id: z.string(),
  repo: z.string(),
  base_commit: z.string(),
  created_at: z.string(),
  problem_statement: z.string(),
  commit_hash: z.string(),
  patch: z.string(),
  test_patch: z.string(),
  FAIL_TO_PASS: z.array(z.string()),
  PASS_TO_PASS: z.array(z.string()),
  test_cmds: z.array(z.string()),
  image_name: z.string(),
  log_parser: z.string(),
});
export type Instance = z.infer<typeof instanceSchema>;

/** `owner__repo-123` → `owner_1776_repo-123`: how SWE-bench names instance images. */
function evalImageTag(instanceId: string): string {
  return `sweb.eval.x86_64.${instanceId.replace("__", "_1776_")}`.toLowerCase();
}

/** Where each source publishes its images when the record does not say. */
const DEFAULT_IMAGE: Record<Source, (id: string) => string> = {
  "SWE-bench": (id) => `swebench/${evalImageTag(id)}:latest`,
  "SWE-rebench": (id) => `swerebench/${evalImageTag(id)}:latest`,
  "SWE-bench-Live": (id) => `starryzhang/${evalImageTag(id)}:latest`,
  "SWE-Gym": (id) => `xingyaoww/sweb.eval.x86_64.${id.replace("__", "_s_")}:latest`.toLowerCase(),
};

function defaultTestCmds(testPatch: string): string[] {
  const files = touchedFiles(testPatch).filter((f) => f.endsWith(".py"));
  // python3: SWE-bench images have it beside `python`, plain Debian images only it
  return [`python3 -m pytest -rA -p no:cacheprovider ${files.join(" ")}`.trim()];
}

type Parsed = { source: Source; raw: z.infer<typeof common> & { test_cmds?: string[]; log_parser?: string; install_config?: { test_cmd: string[]; log_parser: string } } };

function normalize({ source, raw }: Parsed): Instance {
  const cmds = raw.install_config?.test_cmd ?? raw.test_cmds ?? defaultTestCmds(raw.test_patch);
  return {
    source,
    instance_id: raw.instance_id,
    repo: raw.repo,
    base_commit: raw.base_commit,
    created_at: new Date(raw.created_at).toISOString(),
    problem_statement: raw.problem_statement,
    commit_hash: raw.commit_hash,
    patch: raw.patch,
    test_patch: raw.test_patch,
    FAIL_TO_PASS: raw.FAIL_TO_PASS,
    PASS_TO_PASS: raw.PASS_TO_PASS,
    test_cmds: cmds,
    image_name: raw.image_name ?? raw.docker_image ?? DEFAULT_IMAGE[source](raw.instance_id),
    log_parser: raw.install_config?.log_parser ?? raw.log_parser ?? "pytest",
  };
}

/**
 * The source a record's shape shows when the file's source was not given:
 * `install_config` is SWE-rebench's, a `test_cmds` field SWE-bench-Live's;
 * SWE-Gym looks like SWE-bench and must be named.
 */
export function detectSource(value: unknown): Source {
  if (typeof value === "object" && value !== null) {
    if ("install_config" in value) return "SWE-rebench";
    if ("test_cmds" in value && "log_parser" in value) return "SWE-bench-Live";
  }
  return "SWE-bench";
}

export type InstanceParse = { ok: true; instance: Instance } | { ok: false; error: z.ZodError };

/** One record of a source's instance file, validated by that source's schema and normalized. */
export function parseInstance(value: unknown, source: Source = detectSource(value)): InstanceParse {
  const parsed = INSTANCE_SCHEMAS[source].safeParse(value);
  if (!parsed.success) return { ok: false, error: parsed.error };
  return { ok: true, instance: normalize({ source, raw: parsed.data }) };
}
