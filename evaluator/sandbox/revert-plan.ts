/**
 * Pure: how to bring a container's filesystem back to its image, from the
 * engine's list of changes (`docker diff`). Used between the bugs of a chain:
 * code under test runs as root and can write anywhere in the container (a
 * `.pth` file in site-packages, a `python3` earlier on PATH, `/testbed/.git`),
 * and what bug k-1's run left must not decide bug k's grade.
 *
 * Invariants:
 * - Deleted paths and changed paths that are not directories on both sides are
 *   put back from the image (the engine replaces whatever is there: a file, a
 *   directory, a symbolic link).
 * - Added paths are removed.
 * - A directory on both sides is left as it is: its changed children are listed
 *   on their own. Its own metadata (mode, times) is not reverted.
 * - Lists hold top-most paths only: nothing under a path already listed.
 */

/** One entry of `docker diff`: 0 changed, 1 added, 2 deleted. */
export type Change = { Path: string; Kind: 0 | 1 | 2 };

export type RevertPlan = {
  /** to copy back from the image, replacing what is there */
  restore: string[];
  /** to delete: the image has nothing there */
  remove: string[];
};

const under = (path: string, dir: string) => path.startsWith(dir === "/" ? "/" : `${dir}/`);

/** Sorted paths with every path below another listed one dropped. */
export function topMost(paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const p of [...new Set(paths)].sort()) {
    const last = out.at(-1);
    if (last === undefined || !under(p, last)) out.push(p);
  }
  return out;
}

/** Changed paths that have changed paths below them (so they are directories now). */
export function changedParents(changes: readonly Change[]): Set<string> {
  const parents = new Set<string>();
  for (const c of changes) {
    for (let i = c.Path.lastIndexOf("/"); i > 0; i = c.Path.lastIndexOf("/", i - 1)) parents.add(c.Path.slice(0, i));
  }
  return parents;
}

export function revertPlan(changes: readonly Change[], dirsInBoth: ReadonlySet<string>): RevertPlan {
  const restore: string[] = [];
  const remove: string[] = [];
  for (const c of changes) {
    if (c.Path === "/" || c.Path === "") continue;
    if (c.Kind === 1) remove.push(c.Path);
    else if (c.Kind === 2 || !dirsInBoth.has(c.Path)) restore.push(c.Path);
  }
  return { restore: topMost(restore), remove: topMost(remove) };
}
