import { describe, expect, it } from "vitest";
import { dropLastHunk } from "./patches";

const fileA = `diff --git a/a.py b/a.py
index 1111111..2222222 100644
--- a/a.py
+++ b/a.py
@@ -1,2 +1,2 @@
 x = 1
-y = 2
+y = 3
@@ -10,2 +10,2 @@
 z = 1
-w = 2
+w = 3
`;
const fileB = `diff --git a/b.py b/b.py
index 3333333..4444444 100644
--- a/b.py
+++ b/b.py
@@ -1 +1 @@
-old
+new
`;

describe("dropLastHunk", () => {
  it("drops the last hunk of a file with several", () => {
    const out = dropLastHunk(fileA);
    expect(out).toContain("+y = 3");
    expect(out).not.toContain("+w = 3");
    expect(out.endsWith("+y = 3\n")).toBe(true);
  });

  it("drops a whole file section whose only hunk is the last", () => {
    expect(dropLastHunk(fileA + fileB)).toBe(fileA);
  });

  it("leaves nothing of a one-hunk patch", () => {
    expect(dropLastHunk(fileB)).toBe("");
    expect(dropLastHunk("")).toBe("");
  });
});
