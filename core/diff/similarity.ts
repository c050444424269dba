/**
 * How close a model patch is to the gold patch (SPEC §7 "Close to gold"):
 * a similarity in [0, 1] of the code the two patches add, blind to layout,
 * comments and names, so a copy of gold with renamed variables scores as gold.
 *
 * The rule, exactly:
 * 1. the added lines of each patch: lines starting with `+` but not `+++ `, every file, in order;
 * 2. each line is cut into tokens: string literals (with their prefixes and quotes),
 *    numbers, identifiers, and every other non-space character alone; a `#` outside a
 *    string ends the line (a comment); whitespace is dropped;
 * 3. every identifier that is not a Python keyword or builtin becomes the placeholder `ID`,
 *    and every string literal (docstrings and messages, reworded as easily as names) `STR`;
 * 4. the token stream of all added lines is cut into overlapping runs of SHINGLE tokens
 *    (a stream shorter than that is one run);
 * 5. similarity = 2·|M ∩ G| / (|M| + |G|) over the two multisets of runs (Dice):
 *    1 for the same code, 0 for nothing in common; null when gold adds no token
 *    (nothing to copy), 0 when the model patch adds none.
 */

export const SHINGLE = 5;

/** Python's keywords and common builtins: kept as themselves (renaming them would change the code). */
export const KEPT_NAMES: ReadonlySet<string> = new Set(
  [
    "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield",
    "self cls print len range int str float bool list dict set tuple object type isinstance super enumerate zip map filter sorted min max sum any all open abs round iter next repr hash getattr setattr hasattr",
  ]
    .join(" ")
    .split(" "),
);

/** Tokens of one added line (step 2–3 above). */
export function lineTokens(line: string): string[] {
  const out: string[] = [];
  const re = /([rbfuRBFU]{0,2}("""|'''|"|')(?:\\.|(?!\2).)*(?:\2)?)|(\d[\w.]*)|([A-Za-z_]\w*)|(#)|(\S)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    if (m[5]) break;
    if (m[1]) out.push("STR");
    else if (m[3]) out.push(m[3]);
    else if (m[4]) out.push(KEPT_NAMES.has(m[4]) ? m[4] : "ID");
    else if (m[6]) out.push(m[6]);
  }
  return out;
}

/** One added line as the similarity reads it (tokens joined): two lines with the same key are the same code. */
export const addedLineKey = (line: string): string => lineTokens(line).join(" ");

/** The added lines' tokens of a unified diff, in order. */
export function addedTokens(patch: string): string[] {
  return patch.split("\n").flatMap((l) => (l.startsWith("+") && !l.startsWith("+++ ") ? lineTokens(l.slice(1)) : []));
}

function shingles(tokens: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  const n = Math.max(1, tokens.length - SHINGLE + 1);
  for (let i = 0; i < n; i++) {
    const key = tokens.slice(i, i + SHINGLE).join("\u0000");
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** The similarity of a model patch to the gold patch (rule above); null when gold adds nothing. */
export function goldSimilarity(modelPatch: string, goldPatch: string): number | null {
  const gold = addedTokens(goldPatch);
  if (gold.length === 0) return null;
  const model = addedTokens(modelPatch);
  if (model.length === 0) return 0;
  const g = shingles(gold);
  const m = shingles(model);
  let shared = 0;
  let sizeG = 0;
  let sizeM = 0;
  for (const c of g.values()) sizeG += c;
  for (const [k, c] of m) {
    sizeM += c;
    shared += Math.min(c, g.get(k) ?? 0);
  }
  return (2 * shared) / (sizeG + sizeM);
}

/** Lines of `patch`'s added code that the other patch adds too, after the same normalisation (for marking them side by side). */
export function sharedAddedLines(patch: string, other: string): Set<number> {
  const theirs = new Map<string, number>();
  for (const l of other.split("\n")) {
    if (!l.startsWith("+") || l.startsWith("+++ ")) continue;
    const key = lineTokens(l.slice(1)).join(" ");
    if (key) theirs.set(key, (theirs.get(key) ?? 0) + 1);
  }
  const out = new Set<number>();
  patch.split("\n").forEach((l, i) => {
    if (!l.startsWith("+") || l.startsWith("+++ ")) return;
    const key = lineTokens(l.slice(1)).join(" ");
    const left = theirs.get(key) ?? 0;
    if (key && left > 0) {
      out.add(i);
      theirs.set(key, left - 1);
    }
  });
  return out;
}
