/**
 * The bash scripts the rollout runs inside a chain's container around an
 * agent's turn, built as plain strings (pure, unit-tested). The states
 * themselves are built by the replay's own scripts (evaluator/replay/scripts.ts),
 * so the agent starts exactly where the evaluator grades it.
 */
import { COMMIT_ENV, WORK_DIR, q } from "@/evaluator/replay/scripts";

/** Message of the single commit the agent sees; its id depends only on the tree. */
export const VIEW_MESSAGE = "chainswe start state";

/**
 * Turns /testbed at commit `start` into the agent's view of it: a fresh
 * repository whose only commit holds the same tree. The image's history (which
 * may hold later fixes), the gold states the replay built, their reflogs,
 * packed refs and loose objects all go with the old .git; the replay's patch
 * files go with its work directory. Only the objects of the start tree are
 * copied over. Prints `<token> VIEW <commit>` or `<token> VIEW_FAILED`.
 */
export function agentViewScript(token: string, start: string): string {
  return [
    "cd /testbed || exit 1",
    `fail() { echo "${token} VIEW_FAILED"; exit 0; }`,
    `git checkout -q -f --detach ${q(start)} && git clean -fdq || fail`,
    'tree=$(git rev-parse "HEAD^{tree}") || fail',
    `rm -rf ${WORK_DIR}`,
    "fresh=$(mktemp -d) && git init -q \"$fresh\" || fail",
    // objects of the start tree only: no commit, no other blob
    'git rev-list --objects "$tree" | git pack-objects -q --stdout | git --git-dir="$fresh/.git" unpack-objects -q || fail',
    // files the image's repository ignores locally stay ignored
    '[ -f .git/info/exclude ] && cp .git/info/exclude "$fresh/.git/info/exclude"',
    `commit=$(${COMMIT_ENV} git --git-dir="$fresh/.git" commit-tree "$tree" -m ${q(VIEW_MESSAGE)}) || fail`,
    'git --git-dir="$fresh/.git" update-ref refs/heads/main "$commit" && git --git-dir="$fresh/.git" symbolic-ref HEAD refs/heads/main || fail',
    'rm -rf .git && mv "$fresh/.git" .git && rm -rf "$fresh" || fail',
    "git reset -q || fail",
    "git config user.name agent && git config user.email agent@localhost || fail",
    `echo "${token} VIEW $commit"`,
  ].join("\n");
}

/**
 * Git settings that pin the form of the agent's diff: a/ b/ prefixes, no
 * colour, no renames (patch(1), the last apply fallback, cannot follow them),
 * 12-character blob ids, no external diff or text conversion, no hooks.
 */
const DIFF_CONFIG = [
  "core.abbrev=12",
  "core.quotePath=false",
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "diff.renames=false",
  "diff.external=",
]
  .map((c) => `-c ${c}`)
  .join(" ");

/**
 * The agent's change: every file it added, changed or removed since the view
 * commit (committed by the agent or not; .gitignore'd files excluded, as the
 * replay's own `git add -A` would; binary files as git binary patches, which
 * the replay's `git apply` applies), printed between `<token> BEGIN` and
 * `<token> END`. Prints `<token> DIFF_FAILED` if git cannot produce it.
 */
export function agentDiffScript(token: string, viewCommit: string): string {
  return [
    "cd /testbed || exit 1",
    `git ${DIFF_CONFIG} add -A >/dev/null 2>&1 || { echo "${token} DIFF_FAILED"; exit 0; }`,
    `out=$(mktemp) && git ${DIFF_CONFIG} diff --cached --binary --no-color --no-ext-diff --no-textconv --src-prefix=a/ --dst-prefix=b/ ${q(viewCommit)} >"$out" 2>/dev/null || { echo "${token} DIFF_FAILED"; exit 0; }`,
    `echo "${token} BEGIN"`,
    'cat "$out"',
    `echo "${token} END"`,
    'rm -f "$out"',
  ].join("\n");
}

/** The view commit from agentViewScript's output, or null when it failed. */
export function parseView(output: string, token: string): string | null {
  const m = new RegExp(`^${token} VIEW ([0-9a-f]{40,64})$`, "m").exec(output);
  return m ? m[1]! : null;
}

/** The diff from agentDiffScript's output, or null when git could not produce it. */
export function parseDiff(output: string, token: string): string | null {
  const begin = output.indexOf(`${token} BEGIN\n`);
  const end = output.lastIndexOf(`${token} END`);
  if (begin < 0 || end < begin) return null;
  return output.slice(begin + token.length + 7, end);
}
