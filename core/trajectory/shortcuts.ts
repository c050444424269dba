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

/**
 * The scan reads an upload, which its team wrote: every rule is linear in the
 * command's length (words and fixed texts, no pattern that backtracks over a
 * long line), so no log can stall the site.
 */
type Rule = { kind: ShortcutKind; why: string; test: (call: ScannedCall) => boolean };

/**
 * What the rules read of a call: its command's first SCANNED_COMMAND
 * characters (a shortcut fits in far fewer; a forged megabyte command costs
 * no more), split into simple commands and words, its git invocations, and
 * its outputs' first SCANNED_OUTPUT characters each (the harness logs 64 KB).
 */
type ScannedCall = { command: string; segments: string[][]; git: string[][]; outputs: string[] };
const SCANNED_COMMAND = 8 * 1024;
const SCANNED_OUTPUT = 64 * 1024;

/** The command's simple commands (split at newlines, `;`, `|`, `&`), each as words, quotes dropped (`sh -c 'git log --all'` is git's). */
function segmentsOf(command: string): string[][] {
  return command.split(/[\n;|&]/).map((s) => s.split(/[\s()`'"]+/).filter(Boolean));
}

/** A word naming a program, by its last path component (`/usr/bin/git` is git). */
const program = (word: string) => word.slice(word.lastIndexOf("/") + 1);

/** Each git invocation of a command as [subcommand, …its arguments], after git's own options (`-C dir`, `-c k=v`, `--no-pager`). */
function gitCalls(segments: string[][]): string[][] {
  const calls: string[][] = [];
  for (const words of segments) {
    for (let i = 0; i < words.length; i++) {
      if (program(words[i]!) !== "git") continue;
      let j = i + 1;
      while (j < words.length && words[j]!.startsWith("-")) j += words[j] === "-C" || words[j] === "-c" ? 2 : 1;
      if (j < words.length) calls.push(words.slice(j));
      break;
    }
  }
  return calls;
}

const EVERY_REF = new Set(["--all", "--branches", "--remotes", "--reflog", "--glob"]);
const REF_WALKERS = new Set(["log", "rev-list", "show-branch", "shortlog", "for-each-ref", "branch", "describe", "name-rev", "whatchanged"]);
const UNREACHABLE = new Set(["--lost-found", "--unreachable", "--dangling", "--batch-all-objects"]);
const FETCHERS = new Set(["fetch", "pull", "clone", "ls-remote"]);
const NETWORK_CLIENTS = new Set(["curl", "wget", "nc", "ncat", "netcat", "telnet", "ssh", "scp", "sftp", "ftp", "rsync"]);
const flag = (word: string) => word.split("=")[0]!;

/** `pip install x`, `python -m pip download x`, `uv pip install`, `npm i`, `apt-get update`…; an offline install (`--no-index`, `--offline`, `pip install -e .`) is not */
function installs(words: string[]): boolean {
  if (words.includes("--no-index") || words.includes("--offline")) return false;
  for (let i = 0; i < words.length - 1; i++) {
    const p = program(words[i]!);
    const next = words[i + 1]!;
    if (/^pip[0-9.]*$/.test(p) && (next === "install" || next === "download")) return !(next === "install" && ["-e", "--editable"].includes(words[i + 2] ?? "") && words[i + 3] === ".");
    if (["poetry", "conda"].includes(p) && ["install", "add"].includes(next)) return true;
    if (["npm", "yarn", "pnpm"].includes(p) && ["install", "i", "add"].includes(next)) return true;
    if (["apt", "apt-get"].includes(p) && ["install", "update"].includes(next)) return true;
  }
  return false;
}

const RULES: Rule[] = [
  {
    kind: "future_history",
    why: "walks every ref (--all, --branches, --remotes, --reflog, --glob)",
    test: (c) =>
      c.git.some(([sub, ...rest]) => REF_WALKERS.has(sub!) && rest.some((w) => EVERY_REF.has(flag(w)))) ||
      c.segments.some((words) => words.some((w, i) => program(w) === "gitk" && words.slice(i + 1).some((x) => EVERY_REF.has(flag(x))))),
  },
  { kind: "future_history", why: "reads the reflog", test: (c) => c.git.some(([sub]) => sub === "reflog") },
  { kind: "future_history", why: "reads a ref's earlier positions (@{…})", test: (c) => c.git.some((args) => args.some((w) => w.includes("@{"))) },
  { kind: "future_history", why: "looks for unreachable or dangling objects", test: (c) => c.git.some((args) => args.some((w) => UNREACHABLE.has(w))) },
  {
    kind: "future_history",
    why: "fetches history from elsewhere",
    test: (c) => c.git.some(([sub, next]) => FETCHERS.has(sub!) || (sub === "remote" && ["add", "update", "set-url"].includes(next ?? ""))),
  },
  { kind: "future_history", why: "reads git's ref logs or fetched refs directly", test: (c) => /\.git\/(?:logs|packed-refs|refs\/remotes|ORIG_HEAD|FETCH_HEAD)\b/.test(c.command) },
  { kind: "test_lists", why: "names the dataset's test lists", test: (c) => /\b(?:FAIL_TO_PASS|PASS_TO_PASS)\b/i.test(c.command) },
  { kind: "network", why: "runs a network client", test: (c) => c.segments.some((words) => words.some((w) => NETWORK_CLIENTS.has(program(w)))) },
  { kind: "network", why: "installs or downloads packages", test: (c) => c.segments.some(installs) },
  { kind: "network", why: "names a URL", test: (c) => /\b(?:https?|ftp):\/\//.test(c.command) },
  {
    kind: "network",
    why: "its output shows a failed network lookup or connection",
    test: (c) => c.outputs.some((t) => /Could not resolve host|Temporary failure in name resolution|Name or service not known|Network is unreachable|No route to host|Failed to establish a new connection|getaddrinfo failed/.test(t)),
  },
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
  const command = call.command.slice(0, SCANNED_COMMAND);
  const segments = segmentsOf(command);
  const scanned: ScannedCall = { command, segments, git: gitCalls(segments), outputs: [call.stdout.slice(0, SCANNED_OUTPUT), call.stderr.slice(0, SCANNED_OUTPUT)] };
  for (const rule of RULES) {
    if (!hits.has(rule.kind) && rule.test(scanned)) hits.set(rule.kind, rule.why);
  }
  if (!hits.has("test_lists")) {
    const named = hidden.find((h) => command.includes(h.id) || h.name?.test(command));
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

/** The hits a bug keeps (and a page lists): a forged log can hit on every one of a hundred thousand calls. */
export const MAX_STORED_HITS = 50;

/**
 * The hits kept of a bug's scan: the first of each kind, then the earliest
 * others up to MAX_STORED_HITS, in call order; shortcutKinds of them is the
 * whole scan's. The scan's count is stored beside them.
 */
export function storedHits(hits: ShortcutHit[]): ShortcutHit[] {
  if (hits.length <= MAX_STORED_HITS) return hits;
  const firsts = new Set(shortcutKinds(hits).map((k) => hits.find((h) => h.kind === k)!));
  const rest = hits.filter((h) => !firsts.has(h)).slice(0, MAX_STORED_HITS - firsts.size);
  const kept = new Set([...firsts, ...rest]);
  return hits.filter((h) => kept.has(h));
}

/** The kinds a bug's hits name, each once, in the order first hit: what its flags say to those who may not read the hits. */
export const shortcutKinds = (hits: ShortcutHit[]): ShortcutKind[] => [...new Set(hits.map((h) => h.kind))];

/** Per kind, how many bugs have a hit: a submission's flags. */
export const shortcutSummarySchema = z.partialRecord(shortcutKindSchema, z.number().int().positive());
export type ShortcutSummary = z.infer<typeof shortcutSummarySchema>;

export function shortcutSummary(perBug: ShortcutHit[][]): ShortcutSummary {
  const out: ShortcutSummary = {};
  for (const hits of perBug) for (const kind of shortcutKinds(hits)) out[kind] = (out[kind] ?? 0) + 1;
  return out;
}
