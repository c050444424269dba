/** Patch edits the scripted faulty agents make (pure). */

/**
 * The patch without its last hunk (an undershooting agent: it leaves out part
 * of the fix). A file left with no hunk goes entirely; "" when nothing is left.
 */
export function dropLastHunk(patch: string): string {
  const lines = patch.split("\n");
  const lastHunk = lines.findLastIndex((l) => l.startsWith("@@ "));
  if (lastHunk < 0) return "";
  const fileStart = lines.findLastIndex((l, i) => i < lastHunk && l.startsWith("diff --git "));
  const hunksInFile = lines.slice(fileStart + 1, lastHunk).some((l) => l.startsWith("@@ "));
  const kept = lines.slice(0, hunksInFile || fileStart < 0 ? lastHunk : fileStart);
  const text = kept.join("\n");
  if (!kept.some((l) => l.startsWith("@@ "))) return "";
  return text.endsWith("\n") ? text : `${text}\n`;
}
