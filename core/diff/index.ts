/**
 * Unified-diff facts the evaluator needs: is a text a unified diff, which files
 * does it touch, and are its paths safe to hand to `patch(1)`.
 * Parsing is delegated to parse-diff; only ChainSWE's questions live here.
 */
import parseDiff from "parse-diff";

export type DiffFile = {
  /** path before the change, null for an added file */
  from: string | null;
  /** path after the change, null for a deleted file */
  to: string | null;
};

const DEV_NULL = "/dev/null";

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * git C-quotes unusual paths (`"b/t\303\251st.py"`); parse-diff drops the quotes
 * but keeps the escapes. Decode them so checks see the name git and patch(1)
 * will write (`\056git` is `.git`).
 */
export function decodeGitPath(p: string): string {
  if (!p.includes("\\")) return p;
  const bytes: number[] = [];
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c !== "\\" || i + 1 >= p.length) {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const octal = /^[0-7]{3}/.exec(p.slice(i + 1));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else if (C_ESCAPES[p[i + 1]!] !== undefined) {
      bytes.push(C_ESCAPES[p[i + 1]!]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function cleanPath(p: string | undefined): string | null {
  if (p === undefined || p === "" || p === DEV_NULL) return null;
  return decodeGitPath(p);
}

/** Files of a unified diff, or null when the text is not one. Empty text is no diff. */
export function parseUnifiedDiff(text: string): DiffFile[] | null {
  if (text.trim() === "") return null;
  // A unified diff has file headers; parse-diff is lenient, so check the shape first.
  const hasGitHeader = /^diff --git /m.test(text);
  const hasUnifiedHeaders = /^--- .*\n\+\+\+ /m.test(text);
  if (!hasGitHeader && !hasUnifiedHeaders) return null;
  const files = parseDiff(text);
  if (files.length === 0) return null;
  const out: DiffFile[] = [];
  for (const f of files) {
    const from = cleanPath(f.from);
    const to = cleanPath(f.to);
    if (from === null && to === null) return null;
    out.push({ from, to });
  }
  return out;
}

export function isUnifiedDiff(text: string): boolean {
  return parseUnifiedDiff(text) !== null;
}

/** Every path a diff touches (old and new names of renames), sorted, unique. */
export function touchedFiles(text: string): string[] {
  const files = parseUnifiedDiff(text);
  if (!files) return [];
  const set = new Set<string>();
  for (const f of files) {
    if (f.from) set.add(f.from);
    if (f.to) set.add(f.to);
  }
  return [...set].sort();
}

/**
 * A path is unsafe when it could escape the repository or reach git's own
 * metadata: absolute, containing a `..` component, or inside `.git/`.
 * git apply refuses these itself; `patch(1)` does not, so the replay checks first.
 */
export function isUnsafePath(p: string): boolean {
  if (p.startsWith("/") || p.startsWith("~")) return true;
  const parts = p.split("/");
  return parts.some((part) => part === ".." || part === ".git");
}

export function unsafePaths(text: string): string[] {
  return touchedFiles(text).filter(isUnsafePath);
}

/** Test-runner configuration files: hidden-test territory (SPEC §3 step 4). */
export const RUNNER_CONFIG_BASENAMES = ["conftest.py", "pytest.ini", "tox.ini"] as const;

export function isRunnerConfigFile(p: string): boolean {
  const base = p.split("/").pop() ?? p;
  return (RUNNER_CONFIG_BASENAMES as readonly string[]).includes(base);
}

/**
 * The chain's test globs when its record names none (SPEC §7 "Test edits"): a
 * pattern ending in `/` is a directory anywhere in the path, any other is a
 * file name (`*` any run of characters but `/`).
 */
export const DEFAULT_TEST_GLOBS = ["test_*.py", "*_test.py", "tests/", "testing/", "conftest.py"] as const;

const globRegex = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);

/** A test path (SPEC §7): one that a test patch of the chain touches, or one matching a test glob. */
export function isTestPath(path: string, chainTestPaths: ReadonlySet<string>, globs: readonly string[] = DEFAULT_TEST_GLOBS): boolean {
  if (chainTestPaths.has(path)) return true;
  const parts = path.split("/");
  const base = parts.at(-1) ?? path;
  return globs.some((g) => (g.endsWith("/") ? parts.slice(0, -1).some((dir) => globRegex(g.slice(0, -1)).test(dir)) : globRegex(g).test(base)));
}

/** A diff cut into its files' sections (each with its header lines), in order; the text before the first header is dropped. */
function fileSections(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  const git = lines.some((l) => l.startsWith("diff --git "));
  const starts: number[] = [];
  lines.forEach((l, i) => {
    if (git ? l.startsWith("diff --git ") : l.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) starts.push(i);
  });
  return starts.map((s, k) => lines.slice(s, starts[k + 1] ?? lines.length).join(""));
}

/**
 * The patch without the sections of the files `drop` picks (a section that
 * touches one is dropped whole: a rename out of a test path too), and the paths
 * dropped. Text that is not a unified diff is returned as it is.
 */
export function withoutFiles(patch: string, drop: (path: string) => boolean): { patch: string; dropped: string[] } {
  if (!isUnifiedDiff(patch)) return { patch, dropped: [] };
  const kept: string[] = [];
  const dropped = new Set<string>();
  for (const section of fileSections(patch)) {
    const paths = touchedFiles(section);
    if (paths.some(drop)) paths.forEach((p) => dropped.add(p));
    else kept.push(section);
  }
  return { patch: kept.join(""), dropped: [...dropped].sort() };
}
