/** The plan that brings a container back to its image (evaluator/sandbox/revert-plan). */
import { describe, expect, it } from "vitest";
import { changedParents, revertPlan, topMost, type Change } from "./revert-plan";

const C = (Path: string): Change => ({ Path, Kind: 0 });
const A = (Path: string): Change => ({ Path, Kind: 1 });
const D = (Path: string): Change => ({ Path, Kind: 2 });

describe("topMost", () => {
  it("keeps only paths with no listed ancestor, sorted", () => {
    expect(topMost(["/tmp/a/b", "/tmp/a", "/usr/x", "/tmp/ab", "/tmp/a/c/d"])).toEqual(["/tmp/a", "/tmp/ab", "/usr/x"]);
  });
});

describe("changedParents", () => {
  it("lists every ancestor of every changed path", () => {
    expect([...changedParents([A("/usr/lib/python3/x.pth")])].sort()).toEqual(["/usr", "/usr/lib", "/usr/lib/python3"]);
  });
});

describe("revertPlan", () => {
  it("removes added paths, restores deleted and changed files, leaves directories that are directories on both sides", () => {
    const changes = [
      C("/usr"),
      C("/usr/lib"),
      C("/usr/lib/python3/dist-packages"),
      A("/usr/lib/python3/dist-packages/evil.pth"),
      C("/usr/bin"),
      D("/usr/bin/patch"),
      C("/usr/bin/git"),
      C("/etc"),
      A("/etc/newdir"),
      A("/etc/newdir/file"),
      C("/testbed"),
      C("/testbed/.git/config"),
      C("/tmp"),
    ];
    const dirs = new Set(["/usr", "/usr/lib", "/usr/lib/python3/dist-packages", "/usr/bin", "/etc", "/testbed", "/tmp"]);
    expect(revertPlan(changes, dirs)).toEqual({
      restore: ["/testbed/.git/config", "/usr/bin/git", "/usr/bin/patch"],
      remove: ["/etc/newdir", "/usr/lib/python3/dist-packages/evil.pth"],
    });
  });

  it("restores a directory that became a file or a symbolic link, and a file that became a directory, whole", () => {
    // /usr/lib/python3 is a symlink now (not a directory on both sides); /usr/bin/git is a directory now
    const changes = [C("/usr/lib/python3"), C("/usr/bin/git"), A("/usr/bin/git/inner")];
    expect(revertPlan(changes, new Set())).toEqual({ restore: ["/usr/bin/git", "/usr/lib/python3"], remove: ["/usr/bin/git/inner"] });
  });

  it("restores a directory that was deleted and made again (opaque) and removes what was put in it", () => {
    const changes = [D("/usr/lib/python3/dist-packages"), A("/usr/lib/python3/dist-packages/sitecustomize.py")];
    expect(revertPlan(changes, new Set())).toEqual({
      restore: ["/usr/lib/python3/dist-packages"],
      remove: ["/usr/lib/python3/dist-packages/sitecustomize.py"],
    });
  });

  it("has nothing to do for no changes", () => {
    expect(revertPlan([], new Set())).toEqual({ restore: [], remove: [] });
  });
});
