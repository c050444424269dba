/**
 * The agent contract (docs/ROLLOUT.md), pure: the environment an agent command
 * gets, the metrics file it may write, the `docker exec` wrapper it runs
 * commands with, and the prediction line the harness writes for its turn.
 */
import { patchOverLimit, patchSizeOverLimit } from "@/evaluator/dataset";
import type { Bug, Chain } from "@/core/schemas/dataset";
import { META_FIELDS, agentMetricsSchema, modelPatchSchema, type AgentMetrics, type Mode, type PredictionMeta } from "@/core/schemas/prediction";

/** Where the repository is inside the chain's container. */
export const CONTAINER_REPO = "/testbed";

export type AgentTurn = {
  chain: Chain;
  bug: Bug;
  mode: Mode;
  issueFile: string;
  execPath: string;
  containerId: string;
  memoryDir: string;
  metricsFile: string;
  /** where the agent may submit its patch instead of the tree's diff; absent at the start of the turn */
  patchFile: string;
  timeLimitS: number;
};

/** The variables the agent command runs with (on top of the harness's own environment). */
export function agentEnv(t: AgentTurn): Record<string, string> {
  return {
    CHAINSWE_ISSUE_FILE: t.issueFile,
    CHAINSWE_EXEC: t.execPath,
    CHAINSWE_CONTAINER: t.containerId,
    CHAINSWE_REPO_DIR: CONTAINER_REPO,
    CHAINSWE_MEMORY_DIR: t.memoryDir,
    CHAINSWE_METRICS_FILE: t.metricsFile,
    CHAINSWE_PATCH_FILE: t.patchFile,
    CHAINSWE_TIME_LIMIT_S: String(t.timeLimitS),
    CHAINSWE_MODE: t.mode,
    CHAINSWE_CHAIN_ID: t.chain.continuous_id,
    CHAINSWE_INSTANCE_ID: t.bug.swebench_instance_id,
    CHAINSWE_ORDER: String(t.bug.order),
    CHAINSWE_CHAIN_LENGTH: String(t.chain.bug_fixes.length),
  };
}

/** Single-quotes a string for sh. */
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Starts every structured line of a trajectory log (docs/ROLLOUT.md, "Trajectory log"). */
export const LOG_MARKER = "##[chainswe]";
/** A logged tool call keeps at most this much of each of its stdout and stderr. */
export const LOGGED_STREAM_BYTES = 65536;

/** The line an agent prints on its stdout to start a step of its trajectory; the title is kept to one line. */
export function stepLine(title: string): string {
  return `${LOG_MARKER} step ${title.replace(/\s+/g, " ").trim()}`;
}

/**
 * `$CHAINSWE_EXEC 'command'`: runs the command with bash in the repository
 * inside the container, stdin passed through, full stdout, stderr and exit
 * status returned; the docker CLI honours DOCKER_HOST as the harness does.
 * The call is appended to the bug's log as one marker block once it ends. The
 * streams go to files first so that the block is written whole (the agent
 * writes to the same log) and the log's copy can be capped.
 */
export function execWrapperScript(containerId: string, logFile: string): string {
  const m = LOG_MARKER;
  return [
    "#!/bin/bash",
    "# chainswe rollout: runs a command inside the chain's container and logs the call (see docs/ROLLOUT.md)",
    `log=${shq(logFile)}`,
    `cap=${LOGGED_STREAM_BYTES}`,
    'cmd="$*"',
    'tmp=$(mktemp -d) || { echo "chainswe exec: no temporary directory, command not run" >&2; exit 125; }',
    `trap 'rm -rf "$tmp"' EXIT`,
    "# nanoseconds; BSD date has no %N (it prints N): whole seconds there",
    'now() { local t; t=$(date +%s%N); case "$t" in *N) echo $(( ${t%N} * 1000000000 )) ;; *) echo "$t" ;; esac; }',
    "start=$(now)",
    `docker exec -i -w ${CONTAINER_REPO} ${shq(containerId)} bash -c "$cmd" >"$tmp/out" 2>"$tmp/err"`,
    "status=$?",
    "ms=$(( ($(now) - start) / 1000000 ))",
    'over() { local n; n=$(wc -c <"$1"); echo $(( n > cap ? n - cap : 0 )); }',
    'cut=$(( $(over "$tmp/out") + $(over "$tmp/err") ))',
    "# at most $cap bytes of a stream, ending with a newline so that the next marker starts a line",
    'section() { head -c "$cap" "$1"; if [ -s "$1" ] && [ "$(head -c "$cap" "$1" | tail -c 1 | wc -l)" -eq 0 ]; then echo; fi; }',
    "{",
    `  printf '${m} $ %s\\n' "\${cmd%%$'\\n'*}"`,
    `  case "$cmd" in *$'\\n'*) printf '%s' "\${cmd#*$'\\n'}" | while IFS= read -r line || [ -n "$line" ]; do printf '${m} > %s\\n' "$line"; done ;; esac`,
    '  section "$tmp/out"',
    `  if [ -s "$tmp/err" ]; then echo '${m} stderr'; section "$tmp/err"; fi`,
    `  printf '${m} exit %s %sms' "$status" "$ms"`,
    `  if [ "$cut" -gt 0 ]; then printf ' [%s bytes not logged]' "$cut"; fi`,
    "  echo",
    '} >>"$log"',
    "# the agent gets everything, once the command has ended",
    'cat "$tmp/out"',
    'cat "$tmp/err" >&2',
    'exit "$status"',
    "",
  ].join("\n");
}

/** What an agent may report about its turn; other fields are named in a warning. Defined beside the prediction line, which the trajectory outcome (core/schemas/trajectory.ts) also reads. */
export { agentMetricsSchema, type AgentMetrics };

export type MetricsRead = { metrics: AgentMetrics; warnings: string[] };

/** Parses the metrics file's text (null: the agent wrote none). Bad content is a warning, never fatal. */
export function parseMetrics(text: string | null, file: string): MetricsRead {
  if (text === null) return { metrics: {}, warnings: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { metrics: {}, warnings: [`${file}: not JSON (${(e as Error).message}); metrics ignored`] };
  }
  const parsed = agentMetricsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `field ${i.path.join(".") || "(whole file)"}: ${i.message}`);
    return { metrics: {}, warnings: [`${file}: ${issues.join("; ")}; metrics ignored`] };
  }
  const known = new Set(Object.keys(agentMetricsSchema.shape));
  const unknown = Object.keys(json as object).filter((k) => !known.has(k));
  return { metrics: parsed.data, warnings: unknown.length ? [`${file}: unknown field(s) ignored: ${unknown.join(", ")}`] : [] };
}

/**
 * The agent's patch file after its turn: absent, or its size and text (text
 * null: not read, being over the per-patch limit by size alone).
 */
export type PatchFileFound = { size: number; text: string | null } | null;

/** The submitted patch: null when the agent wrote no patch file (the tree's diff counts). */
export type PatchFileRead = { patch: string | null; warnings: string[] };

/**
 * Checks a patch file as a prediction line's model_patch is checked (the
 * per-patch limit, a unified diff or empty). Bad content is a warning and an
 * empty patch: the agent chose to submit a file, so its tree does not count.
 */
export function parsePatchFile(found: PatchFileFound, file: string, maxPatchBytes?: number): PatchFileRead {
  if (found === null) return { patch: null, warnings: [] };
  const over = found.text === null ? patchSizeOverLimit(found.size, maxPatchBytes) : patchOverLimit(found.text, maxPatchBytes);
  if (over || found.text === null) return { patch: "", warnings: [`${file}: ${over ?? "not read"}; empty patch recorded`] };
  const parsed = modelPatchSchema.safeParse(found.text);
  if (!parsed.success) return { patch: "", warnings: [`${file}: ${parsed.error.issues[0]!.message}; empty patch recorded`] };
  return { patch: parsed.data, warnings: [] };
}

/** How an agent's turn ended; an empty patch unless it ended within the limit. */
export type TurnOutcome = {
  timedOut: boolean;
  exitCode: number | null;
  wallSeconds: number;
  /** the agent's patch: its patch file's text if it wrote one, else the tree's diff; null when no diff could be taken */
  diff: string | null;
  /** where `diff` came from */
  patchSource: "tree" | "patch_file";
  metrics: AgentMetrics;
};

/** The patch recorded for a turn: an agent stopped at the limit gets an empty patch. */
export function recordedPatch(o: TurnOutcome): string {
  return o.timedOut || o.diff === null ? "" : o.diff;
}

/** One prediction line, in the form `chainswe submit` and `evaluate` read. */
export function predictionLine(system: string, chain: Chain, bug: Bug, o: TurnOutcome): Record<string, unknown> {
  const meta: PredictionMeta = { ...o.metrics, wall_seconds: Math.round(o.wallSeconds * 10) / 10 };
  const line: Record<string, unknown> = {
    continuous_id: chain.continuous_id,
    swebench_instance_id: bug.swebench_instance_id,
    model_patch: recordedPatch(o),
    model_name_or_path: system,
  };
  for (const f of META_FIELDS) if (meta[f] !== undefined) line[f] = meta[f];
  return line;
}
