/**
 * The bash scripts the replay runs inside a chain's container, built as plain
 * strings (pure, unit-tested). No model code runs during these scripts — only
 * git and patch — so their token-tagged output lines are trustworthy.
 */
import { RUNNER_CONFIG_BASENAMES, isRunnerConfigFile, type DiffFile } from "@/core/diff";
import type { ApplyMethod } from "@/core/schemas/results";

export const WORK_DIR = "/tmp/chainswe";
export const MODEL_DIFF = `${WORK_DIR}/model.diff`;
export const TEST_DIFF = `${WORK_DIR}/test.diff`;
export const goldDiffPath = (order: number) => `${WORK_DIR}/gold/${order}.test.diff`;
export const goldFixPath = (order: number) => `${WORK_DIR}/gold/${order}.fix.diff`;
/** Model patch j, applied where the states are built. */
export const replayModelPath = (order: number) => `${WORK_DIR}/replay/${order}.model.diff`;
/** Where .git waits while patch(1) runs (see OUTSIDE_GIT_FN). */
export const GIT_ASIDE = `${WORK_DIR}/git-aside`;
/** Where the states script leaves graded state k as a diff from the base commit, and its paths. */
export const STATES_DIR = `${WORK_DIR}/states`;
/** Each state in a directory of its own; the script prints it from there as a frame (OutputFrames). */
export const stateDir = (order: number) => `${STATES_DIR}/${order}`;
export const stateDiffPath = (order: number) => `${stateDir(order)}/state.diff`;
export const statePathsPath = (order: number) => `${stateDir(order)}/state.paths`;
/** The frames (OutputFrames: diff, then paths) the states script prints S(k) and G(k) in. */
export const stateFrameTag = (token: string, order: number) => `${token}-${order}`;
export const goldFrameTag = (token: string, k: number) => `${token}-g${k}`;
/** The gold state G(k) as a diff from the base commit, and its paths (goldDiffs). */
export const goldStateDir = (k: number) => `${STATES_DIR}/g${k}`;
export const goldStateDiffPath = (k: number) => `${goldStateDir(k)}/state.diff`;
export const goldStatePathsPath = (k: number) => `${goldStateDir(k)}/state.paths`;
/** Where a bug's container receives its graded state. */
export const STATE_DIFF = `${WORK_DIR}/state.diff`;
export const STATE_PATHS = `${WORK_DIR}/state.paths`;

/** Single-quotes a string for bash. */
export function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A commit as a shell word: a literal id, or a variable the states script set
 * (`$G1`, `$S2`), whose value is only known inside the container.
 */
export function rev(commit: string): string {
  return /^\$[A-Z][A-Z0-9_]*$/.test(commit) ? `"${commit}"` : q(commit);
}

/**
 * The repository's git settings for the replay, appended to .git/config by
 * the shell alone (a `git config` per key costs a process each, on every
 * chain's critical path); a repeated section is valid and its last value wins.
 */
const GIT_SETUP = `printf '%s\\n' ${[
  "[core]",
  "\thooksPath = /dev/null",
  "\tautocrlf = false",
  // a container's files have other inode, device and ctime than the index
  // recorded (image layers, a fresh container): without these, git would
  // rewrite every tracked file at the first reset, in proportion to the
  // repository's size instead of to what changed
  "\tcheckStat = minimal",
  "\ttrustctime = false",
  "[user]",
  "\tname = chainswe",
  "\temail = chainswe@localhost",
  "[commit]",
  "\tgpgsign = false",
  "[gc]",
  "\tauto = 0",
]
  .map((l) => q(l))
  .join(" ")} >> .git/config`;

/**
 * Commits are reproducible (fixed author, committer and dates): the same
 * patches on the same start give the same commit id, in any container.
 */
export const COMMIT_ENV = [
  "GIT_AUTHOR_NAME=chainswe",
  "GIT_AUTHOR_EMAIL=chainswe@localhost",
  "GIT_AUTHOR_DATE='2000-01-01T00:00:00Z'",
  "GIT_COMMITTER_NAME=chainswe",
  "GIT_COMMITTER_EMAIL=chainswe@localhost",
  "GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'",
].join(" ");

/**
 * Commits the index on top of HEAD with plumbing: no hook, no second walk of
 * the work tree (`git commit` refreshes the whole index again), no automatic gc.
 */
const COMMIT_INDEX = (msg: string) => `tree=$(git write-tree) && commit=$(${COMMIT_ENV} git commit-tree "$tree" -p HEAD -m ${q(msg)}) && git update-ref HEAD "$commit"`;

/**
 * The commit at which /testbed's work tree is known to be exactly that commit
 * (nothing untracked but what it ignores): written only by the scripts of the
 * container that builds states, where nothing else runs, so a bug script can
 * skip resetting to its start.
 */
const CLEAN_AT = `${WORK_DIR}/clean-at`;

/**
 * Resets the work tree to a commit, dropping untracked files. No code runs in
 * a container that builds states, so there is no stale bytecode to drop.
 */
const RESET_FN = `reset_to() { git reset -q --hard "$1" && git clean -fdq; }`;

/** Restores a path to its content at a commit, or removes it if the commit lacks it. */
const RESTORE_FN = `restore_from() { if git cat-file -e "$1:$2" 2>/dev/null; then git checkout -q "$1" -- "$2"; else rm -rf -- "$2"; fi; }`;

/**
 * Runs a command with .git moved out of the work tree. GNU patch refuses `..`
 * and absolute names but writes into .git when told to (a context-diff section
 * git and parse-diff never see, or a path through a symlink the same patch
 * creates, `l -> ../.git`): .git/config then runs code in the trusted steps that
 * follow (core.fsmonitor). Whatever appears at .git meanwhile is dropped.
 */
const OUTSIDE_GIT_FN = `outside_git() { rm -rf ${GIT_ASIDE} && mv .git ${GIT_ASIDE} || return 1; "$@"; local rc=$?; rm -rf .git; mv ${GIT_ASIDE} .git; return $rc; }`;

/**
 * Hidden test files back to their gold content, in two commands: paths that
 * exist before test patch k (its "from" side) are checked out of G(k-1); paths
 * it creates are removed.
 */
function restoreHiddenTests(goldPrev: string, files: DiffFile[]): string[] {
  const existing = [...new Set(files.flatMap((f) => (f.from ? [f.from] : [])))];
  const created = [...new Set(files.flatMap((f) => (f.to && f.to !== f.from ? [f.to] : [])))].filter((p) => !existing.includes(p));
  return [
    ...(existing.length ? [`git checkout -q ${rev(goldPrev)} -- ${existing.map(q).join(" ")}`] : []),
    ...(created.length ? [`rm -rf -- ${created.map(q).join(" ")}`] : []),
  ];
}
/** The gold states are built in an index of their own, with no work tree: git reads only the trees and the patches, never the repository's files. */
const GOLD_INDEX = `GIT_INDEX_FILE=${WORK_DIR}/gold.index`;

/** Sets git up, sets G0 to the base commit (`<token> NOBASE` and exit 3 when the image lacks it) and starts the gold index there. */
function goldStart(token: string, baseCommit: string, length: number): string[] {
  return [
    "cd /testbed",
    // a container's one run that builds gold states sets git up first
    GIT_SETUP,
    `G0=$(git rev-parse -q --verify ${q(`${baseCommit}^{commit}`)}) || { echo "${token} NOBASE"; exit 3; }`,
    `echo "${token} G0 $G0"`,
    ...(length > 0 ? [`${GOLD_INDEX} git read-tree "$G0"`] : []),
  ];
}

/** G(k) = G(k-1) + test patch k + gold patch k, as the shell variable G<k>; `<token> BROKEN <k> test|gold` and exit 3 when one does not apply. */
function goldStep(token: string, k: number): string[] {
  // test and gold patch touch disjoint files: one git apply; on failure, find which
  const which = `${GOLD_INDEX} git apply --cached --check ${goldDiffPath(k)} >/dev/null 2>&1 && echo "${token} BROKEN ${k} gold" || echo "${token} BROKEN ${k} test"`;
  return [
    `${GOLD_INDEX} git apply --cached --verbose ${goldDiffPath(k)} ${goldFixPath(k)} || { ${which}; exit 3; }`,
    `G${k}=$(${COMMIT_ENV} git commit-tree "$(${GOLD_INDEX} git write-tree)" -p "$G${k - 1}" -m ${q(`chainswe gold state G(${k})`)})`,
    `echo "${token} G${k} $G${k}"`,
  ];
}

/**
 * Builds every gold state G(1..n) as a commit on the base commit G(0):
 * G(k) = G(k-1) + test patch k + gold patch k. Prints `<token> G<k> <sha>` and
 * sets the shell variable G<k> to it;
 * on a patch that does not apply prints `<token> BROKEN <k> test|gold` and exits 3.
 */
export function goldStatesScript(token: string, baseCommit: string, length: number): string {
  return [...goldStart(token, baseCommit, length), ...Array.from({ length }, (_, i) => goldStep(token, i + 1)).flat()].join("\n");
}

export type BugScriptInput = {
  token: string;
  /** commit the model patch applies to: G(k-1) (Oracle) or A(k-1) (Seq); an id or a states-script variable (see rev) */
  start: string;
  /** G(k-1): where hidden test files are restored from (an id or a variable) */
  goldPrev: string;
  /**
   * Paths the model and test patches touch: the only ones committed (with
   * everything after a patch(1) apply), even where .gitignore would leave them
   * out, so the state holds exactly what the patches wrote.
   */
  patchPaths: string[];
  /** whether MODEL_DIFF holds a patch to try */
  hasModelPatch: boolean;
  /** files test patch k touches, as parsed from it */
  testFiles: DiffFile[];
  /** where the model and test patches are (default MODEL_DIFF, TEST_DIFF) */
  modelDiff?: string;
  testDiff?: string;
};

const applyAttempts = (diff: string): { method: ApplyMethod; command: string; run: string; tool: string }[] => {
  // --no-backup-if-mismatch: a fuzzy apply must not leave <file>.orig in the agent state
  const patch = `patch --batch --fuzz=5 -p1 --no-backup-if-mismatch -i ${diff}`;
  return [
    { method: "git_apply", command: `git apply --verbose ${diff}`, run: `git apply --verbose ${diff}`, tool: "git" },
    { method: "git_apply_reject", command: `git apply --verbose --reject ${diff}`, run: `git apply --verbose --reject ${diff}`, tool: "git" },
    { method: "patch", command: patch, run: `outside_git ${patch}`, tool: "patch" },
  ];
};

/** Tries each apply method from a clean start state; a fallback whose tool is missing is skipped. */
function applyModelPatch(token: string, diff: string): string[] {
  const lines = ["method=none"];
  for (const a of applyAttempts(diff)) {
    lines.push(
      `if [ "$method" = none ]; then`,
      `  if command -v ${a.tool} >/dev/null 2>&1; then`,
      `    echo ">>> ${a.command}"`,
      `    if ${a.run}; then method=${a.method}; else reset_to "$START"; fi`,
      `  else echo ">>> ${a.tool} is not in the image; skipped"; fi`,
      `fi`,
    );
  }
  lines.push(`echo "${token} METHOD $method"`);
  return lines;
}

/** Restores every runner-configuration file the model patch changed (after patch(1): anywhere; after git: among `named`), printing `<token> DISCARDED <path>` for each. */
function discardRunnerConfig(token: string, named: string[], configCase: string): string[] {
  const discard = (pathspecs: string) => [
    `git status --porcelain=v1 -z -uall --ignored -- ${pathspecs} | while IFS= read -r -d '' entry; do`,
    `  f="\${entry:3}"; case "\${f##*/}" in ${configCase}) restore_from "$START" "$f"; echo "${token} DISCARDED $f";; esac`,
    "done",
  ];
  const everywhere = RUNNER_CONFIG_BASENAMES.map((b) => q(`:(glob)**/${b}`)).join(" ");
  return [
    `if [ "$method" = patch ]; then`,
    ...discard(everywhere),
    ...(named.length ? [`elif [ "$method" != none ]; then`, ...discard(named.map((p) => q(`:(literal)${p}`)).join(" "))] : []),
    "fi",
  ];
}

/**
 * Grades-side preparation of bug k (SPEC §3 steps 1–2): apply the model patch,
 * discard edits to runner configuration, restore hidden test files, apply the
 * test patch and commit the result (the Seq agent state A(k)). Prints
 * `<token> METHOD <m>`, `<token> DISCARDED <path>`, then `<token> STATE <sha>`
 * or `<token> TESTPATCH_FAILED`.
 */
export function bugScript(input: BugScriptInput): string {
  const { token } = input;
  const modelDiff = input.modelDiff ?? MODEL_DIFF;
  const testDiff = input.testDiff ?? TEST_DIFF;
  const configCase = RUNNER_CONFIG_BASENAMES.join("|");
  const lines = [
    "cd /testbed",
    RESET_FN,
    RESTORE_FN,
    OUTSIDE_GIT_FN,
    `START=${rev(input.start)}`,
    // the work tree is left clean at the state just committed, unless patch(1) may have written what git does not track
    // (builtins only: this runs once per bug of every chain)
    `clean_at=; if [ -f ${CLEAN_AT} ]; then read -r clean_at < ${CLEAN_AT}; : > ${CLEAN_AT}; fi`,
    `[ "$clean_at" = "$START" ] || reset_to "$START"`,
    ...(input.hasModelPatch
      ? [
          ...applyModelPatch(token, modelDiff),
          // runner configuration is hidden-test territory: model edits (even to ignored paths) are discarded.
          // git apply writes only the paths its diff names, and only the patches' paths enter the state, so
          // those are the ones to look at; patch(1) may write others, so after it every name is (git matches
          // the names: a repository's ignored files, its bytecode among them, are not listed one by one)
          ...discardRunnerConfig(token, input.patchPaths.filter(isRunnerConfigFile), configCase),
        ]
      : [`echo "${token} METHOD none"`]),
    ...restoreHiddenTests(input.goldPrev, input.testFiles),
    `git apply --verbose ${testDiff} || { echo "${token} TESTPATCH_FAILED"; exit 0; }`,
    // the paths the patches touch, added, changed or removed, ignored or not; everything only after patch(1)
    ...(input.patchPaths.length ? [`git update-index --add --remove -- ${input.patchPaths.map(q).join(" ")}`] : []),
    ...(input.hasModelPatch ? ['if [ "$method" = patch ]; then git add -A; fi'] : []),
    COMMIT_INDEX("chainswe agent state"),
    `${input.hasModelPatch ? '[ "$method" = patch ] || ' : ""}echo "$commit" > ${CLEAN_AT}`,
    `echo "${token} STATE $commit"`,
  ];
  return lines.join("\n");
}

export type StatesScriptBug = {
  order: number;
  /** whether replayModelPath(order) holds a patch to try */
  hasModelPatch: boolean;
  testFiles: DiffFile[];
  patchPaths: string[];
};

/**
 * Every state of a chain, built once from the patches alone (git and patch
 * only; no code of the repository or the submission runs): the gold states
 * G(0..n) as goldStatesScript builds them, and each bug's graded state S(k)
 * = its start + model patch k + test patch k, by the bug script — from G(k-1)
 * in Oracle, from S(k-1) = A(k-1) in Seq. Bug k needs no gold state after
 * G(k-1), so G(k) is built only after S(k): each state is ready as early as
 * it can be. Each bug's lines are bracketed by `<token>-<k> BEGIN` and
 * `<token>-<k> TREE <tree id>`; by then S(k) is left in stateDir(k) as a diff
 * from the base commit with its paths (NUL-separated), complete, so that the
 * harness can take it (a frame, stateFrameTag) while the script goes on. Prints `<token> AT_BASE`
 * when the image's /testbed is the base commit with a clean work tree. Without
 * `leave`, the states stay in the work tree and no diff is left: bug 1, whose
 * start is the base commit, builds its own state this way in its own container.
 */
export function chainStatesScript(o: {
  token: string;
  baseCommit: string;
  mode: "oracle" | "seq";
  /** the bugs to build, in order (all of them, or a run of them) */
  bugs: StatesScriptBug[];
  /** how many bugs the chain has */
  length: number;
  /**
   * The gold states: G(0..build) built here from the base commit (G(0) alone
   * when 0), or known from an earlier run of this script in the same container.
   */
  gold: { build: number } | { known: string[] };
  /** S(k-1) before the first bug here, from an earlier run (default: G(0)) */
  startState?: string;
  /** also leave G(0..length-1) as diffs from the base commit (the starts of an Oracle rollout) */
  goldDiffs?: boolean;
  /** leave each S(k) as a diff from the base commit (default true) */
  leave?: boolean;
}): string {
  const diffFrom = "git -c core.quotepath=off diff --binary --full-index --no-ext-diff --no-textconv --no-renames --src-prefix=a/ --dst-prefix=b/";
  const first = o.bugs[0]?.order ?? 1;
  const build = "build" in o.gold ? o.gold.build : 0;
  const goldToken = `${o.token}-gold`;
  const lines =
    "known" in o.gold
      ? ["cd /testbed", ...o.gold.known.map((g, k) => `G${k}=${q(g)}`)]
      : [
          ...goldStart(goldToken, o.baseCommit, build),
          // whether the image holds the base commit with a clean work tree: its bugs' containers then need no reset
          // (after the git setup, so that a fresh container's stat data does not make git read every file)
          ...(o.startState
            ? []
            : [`[ "$(git rev-parse -q --verify HEAD)" = "$G0" ] && [ -z "$(git status --porcelain)" ] && { echo "${o.token} AT_BASE"; mkdir -p ${WORK_DIR}; echo "$G0" > ${CLEAN_AT}; }`]),
        ];
  const leaving = o.leave ?? true;
  lines.push(o.startState ? `S${first - 1}=${q(o.startState)}` : `S${first - 1}="$G0"`);
  // every state's directory at once: a process per directory costs more than the diff
  const dirs = [...(leaving ? o.bugs.map((b) => stateDir(b.order)) : []), ...(o.goldDiffs ? Array.from({ length: o.length }, (_, k) => goldStateDir(k)) : [])];
  if (dirs.length) lines.push(`mkdir -p ${dirs.join(" ")}`);
  // each state is also printed as a frame (OutputFrames): the harness has it the moment it is built
  const leave = (commit: string, dir: string, tag: string) => [
    `${diffFrom} "$G0" "${commit}" > ${dir}/state.diff`,
    `git diff --name-only -z --no-renames "$G0" "${commit}" > ${dir}/state.paths`,
    `echo "${tag} FRAME" $(stat -c %s ${dir}/state.diff ${dir}/state.paths)`,
    `cat ${dir}/state.diff ${dir}/state.paths`,
  ];
  const byOrder = new Map(o.bugs.map((b) => [b.order, b]));
  const last = Math.max(build, o.bugs.at(-1)?.order ?? 0);
  for (let k = 1; k <= last; k++) {
    const bug = byOrder.get(k);
    if (bug) {
      const token = `${o.token}-${k}`;
      lines.push(
        `echo "${token} BEGIN"`,
        bugScript({
          token,
          start: o.mode === "oracle" ? `$G${k - 1}` : `$S${k - 1}`,
          goldPrev: `$G${k - 1}`,
          hasModelPatch: bug.hasModelPatch,
          testFiles: bug.testFiles,
          patchPaths: bug.patchPaths,
          modelDiff: replayModelPath(k),
          testDiff: goldDiffPath(k),
        }),
        `S${k}="$commit"`,
        ...(leaving ? leave(`$S${k}`, stateDir(k), stateFrameTag(o.token, k)) : []),
        `echo "${token} TREE $tree"`,
      );
    }
    if (k <= build) lines.push(...goldStep(goldToken, k));
  }
  if (o.goldDiffs) {
    for (let k = 0; k < o.length; k++) lines.push(...leave(`$G${k}`, goldStateDir(k), goldFrameTag(o.token, k)), `echo "${goldToken} TREE${k} $(git rev-parse "$G${k}^{tree}")"`);
  }
  return lines.join("\n");
}

/**
 * Puts a graded state into a bug's fresh container and prints `<token> TREE
 * <tree id>` so the harness can check it is the tree the states script built.
 * When the image's /testbed is the base commit with a clean work tree (the
 * states script says so: AT_BASE) only the state's diff is applied and its
 * paths staged — no walk of the repository; otherwise the work tree is first
 * reset to the base commit. The diff holds the state's content only: no commit
 * of any other state — no gold state of a later bug — reaches this container.
 */
export function gradedStateScript(token: string, baseCommit: string, atBase: boolean): string {
  return [
    "cd /testbed",
    ...(atBase ? [] : [GIT_SETUP, RESET_FN, `reset_to ${q(baseCommit)}`]),
    `if [ -s ${STATE_DIFF} ]; then git apply --whitespace=nowarn ${STATE_DIFF} || { echo "${token} STATE_FAILED"; exit 0; }; fi`,
    `git update-index --add --remove -z --stdin < ${STATE_PATHS}`,
    ...(atBase ? [] : ["git add -A"]),
    COMMIT_INDEX("chainswe graded state"),
    `rm -rf ${WORK_DIR}`,
    `echo "${token} TREE $tree"`,
  ].join("\n");
}

/** The test command, run from the repository root. */
export function testScript(testCmds: string[]): string {
  return ["cd /testbed", ...testCmds].join("\n");
}

/** Lines `<token> KEY rest` of a trusted script's output. */
export function taggedLines(output: string, token: string): { key: string; rest: string }[] {
  const out: { key: string; rest: string }[] = [];
  for (const line of output.split("\n")) {
    if (!line.startsWith(`${token} `)) continue;
    const body = line.slice(token.length + 1);
    const space = body.indexOf(" ");
    out.push(space < 0 ? { key: body, rest: "" } : { key: body.slice(0, space), rest: body.slice(space + 1) });
  }
  return out;
}
