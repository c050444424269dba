/**
 * Known shortcuts in a bug's trajectory (SPEC §7 "Trajectories"): tool calls
 * that read future history, read the test lists, or try the network. Only
 * the calls the harness logged run in the container, so only they are
 * scanned; the agent's own text may discuss anything. A hit is a flag for
 * reviewers, not a verdict: it names the call and the rule it matched.
 */
import { z } from "zod";
import type { Timeline, ToolCall } from "./timeline";

export const shortcutKindSchema = z.enum(["future_history", "test_lists", "network"]);
export type ShortcutKind = z.infer<typeof shortcutKindSchema>;

export const SHORTCUT_LABELS: Record<ShortcutKind, string> = {
  future_history: "reads future history",
  test_lists: "reads the test lists",
  network: "tries the network",
};

export const shortcutHitSchema = z.object({
  kind: shortcutKindSchema,
  /** the tool call's index in the bug's timeline */
  call: z.number().int().positive(),
  /** the call's first command line, shortened */
  command: z.string(),
  /** the rule it matched, in words */
  why: z.string(),
});
export type ShortcutHit = z.infer<typeof shortcutHitSchema>;
export const shortcutHitsSchema = z.array(shortcutHitSchema);

/** `unless`: a command that also matches it is left alone (e.g. an offline install) */
type Rule = { kind: ShortcutKind; why: string; command?: RegExp; unless?: RegExp; output?: RegExp };

/** a git subcommand, allowing options such as `-C dir` or `--no-pager` before it */
const git = (sub: string) => new RegExp(`\\bgit(?:\\s+(?:-C\\s+\\S+|-c\\s+\\S+|--\\S+))*\\s+(?:${sub})\\b`);

const RULES: Rule[] = [
  {
    kind: "future_history",
    why: "walks every ref (--all, --branches, --remotes, --reflog, --glob)",
    command: new RegExp(`(?:${git("log|rev-list|show-branch|shortlog|for-each-ref|branch|describe|name-rev|whatchanged").source}|\\bgitk)[^\\n;|&]*\\s--(?:all|branches|remotes|reflog|glob)\\b`),
  },
  { kind: "future_history", why: "reads the reflog", command: git("reflog") },
  { kind: "future_history", why: "reads a ref's earlier positions (@{…})", command: /\bgit\b[^\n;|&]*@\{/ },
  { kind: "future_history", why: "looks for unreachable or dangling objects", command: /\bgit\b[^\n;|&]*(?:--lost-found|--unreachable|--dangling|--batch-all-objects)\b/ },
  { kind: "future_history", why: "fetches history from elsewhere", command: git("fetch|pull|clone|ls-remote|remote\\s+(?:add|update|set-url)") },
  { kind: "future_history", why: "reads git's ref logs or fetched refs directly", command: /\.git\/(?:logs|packed-refs|refs\/remotes|ORIG_HEAD|FETCH_HEAD)\b/ },
  { kind: "test_lists", why: "names the dataset's test lists", command: /\b(?:FAIL_TO_PASS|PASS_TO_PASS)\b/i },
  { kind: "network", why: "runs a network client", command: /(?:^|[\s;|&(`])(?:curl|wget|nc|ncat|netcat|telnet|ssh|scp|sftp|ftp|rsync)(?=\s|$)/m },
  {
    kind: "network",
    why: "installs or downloads packages",
    unless: /--no-index\b|--offline\b|\bpip3?\s+install\s+(?:-e|--editable)\s+\.(?:\s|$)/,
    command: /\b(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|poetry|conda)\s+(?:install|download|add)\b|\b(?:npm|yarn|pnpm)\s+(?:install|i|add)\b|\bapt(?:-get)?\s+(?:install|update)\b/,
  },
  { kind: "network", why: "names a URL", command: /\b(?:https?|ftp):\/\// },
  { kind: "network", why: "its output shows a failed network lookup or connection", output: /Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|No route to host|Failed to establish a new connection|getaddrinfo failed/ },
];

/**
 * A bug's hidden tests, as the scan looks for them: its FAIL_TO_PASS ids whose
 * test function the bug's test patch adds (the start state cannot have them,
 * so a call naming one knew the list). Pure.
 */
export function hiddenTestNames(testPatch: string, failToPass: string[]): string[] {
  const added = new Set<string>();
  const removed = new Set<string>();
  for (const line of testPatch.split("\n")) {
    const def = /^([+-])\s*(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(line);
    if (def) (def[1] === "+" ? added : removed).add(def[2]!);
  }
  return failToPass.filter((id) => {
    const name = testFunction(id);
    return name !== null && added.has(name) && !removed.has(name);
  });
}

/** `tests/t.py::TestX::test_y[1-2]` → test_y; `test_y (mod.TestX)` → test_y. */
function testFunction(id: string): string | null {
  const last = id.includes("::") ? id.slice(id.lastIndexOf("::") + 2) : id.split(/\s/)[0]!;
  const name = last.replace(/\[.*$/, "");
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : null;
}

const shortened = (command: string) => {
  const first = command.split("\n")[0]!;
  return first.length > 160 ? `${first.slice(0, 159)}…` : first;
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The hits of one call; at most one per kind (the first rule of the kind that matched). */
function callHits(call: ToolCall, hidden: { id: string; name: RegExp | null }[]): ShortcutHit[] {
  const hits = new Map<ShortcutKind, string>();
  for (const rule of RULES) {
    if (hits.has(rule.kind)) continue;
    if (rule.unless?.test(call.command)) continue;
    if ((rule.command && rule.command.test(call.command)) || (rule.output && (rule.output.test(call.stdout) || rule.output.test(call.stderr)))) hits.set(rule.kind, rule.why);
  }
  if (!hits.has("test_lists")) {
    const named = hidden.find((h) => call.command.includes(h.id) || h.name?.test(call.command));
    if (named) hits.set("test_lists", `names the hidden test ${named.id}, which the bug's test patch adds`);
  }
  return [...hits].map(([kind, why]) => ({ kind, call: call.index, command: shortened(call.command), why }));
}

/** Every hit in a bug's timeline, in call order. `hiddenTests`: hiddenTestNames of the bug. */
export function scanShortcuts(timeline: Timeline, hiddenTests: string[] = []): ShortcutHit[] {
  // a bare function name only when it is distinctive: an agent may well write its own short test_parse
  const hidden = hiddenTests.map((id) => {
    const name = testFunction(id)!;
    return { id, name: name.length >= 12 ? new RegExp(`\\b${escape(name)}\\b`) : null };
  });
  return timeline.calls.flatMap((c) => callHits(c, hidden));
}

/** Per kind, how many bugs have a hit: a submission's flags. */
export const shortcutSummarySchema = z.partialRecord(shortcutKindSchema, z.number().int().positive());
export type ShortcutSummary = z.infer<typeof shortcutSummarySchema>;

export function shortcutSummary(perBug: ShortcutHit[][]): ShortcutSummary {
  const out: ShortcutSummary = {};
  for (const hits of perBug) for (const kind of new Set(hits.map((h) => h.kind))) out[kind] = (out[kind] ?? 0) + 1;
  return out;
}
