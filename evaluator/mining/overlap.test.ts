import { describe, expect, it } from "vitest";
import { changedLines, footprint, pairwiseOverlap, touchedSymbols } from "./overlap";
import { pythonDefinitions } from "./python-symbols";

const OLD = `import math


class Span:
    def __init__(self, a, b):
        self.a = a
        self.b = b

    @property
    def length(self):
        return self.b - self.a


def helper(x):
    return math.floor(x)
`;

const NEW = OLD.replace("return self.b - self.a", "return self.b - self.a + 1").replace("def helper(x):\n", "def helper(x):\n    x = float(x)\n");

const PATCH = `diff --git a/pkg/span.py b/pkg/span.py
--- a/pkg/span.py
+++ b/pkg/span.py
@@ -9,7 +9,8 @@ class Span:
     @property
     def length(self):
-        return self.b - self.a
+        return self.b - self.a + 1
 
 
 def helper(x):
+    x = float(x)
     return math.floor(x)
`;

describe("python definitions (tree-sitter)", () => {
  it("gives classes, methods and functions with dotted names and spans that include decorators", async () => {
    const defs = await pythonDefinitions(OLD);
    expect(defs.map((d) => [d.kind, d.name, d.start, d.end])).toEqual([
      ["class", "Span", 4, 11],
      ["function", "Span.__init__", 5, 7],
      ["function", "Span.length", 9, 11],
      ["function", "helper", 14, 15],
    ]);
  });
});

describe("code overlap", () => {
  it("maps removed lines to the old file's definitions and added lines to the new file's", async () => {
    const [change] = changedLines(PATCH);
    expect(change).toMatchObject({ from: "pkg/span.py", to: "pkg/span.py", removed: [11], added: [11, 15] });
    const symbols = touchedSymbols(change!, await pythonDefinitions(OLD), await pythonDefinitions(NEW));
    expect(symbols).toEqual(["pkg/span.py::Span", "pkg/span.py::Span.length", "pkg/span.py::helper"]);
  });

  it("a module-level change touches the file only", async () => {
    const patch = `--- a/pkg/span.py\n+++ b/pkg/span.py\n@@ -1 +1 @@\n-import math\n+import math, os\n`;
    const [change] = changedLines(patch);
    expect(touchedSymbols(change!, await pythonDefinitions(OLD), await pythonDefinitions(OLD.replace("import math", "import math, os")))).toEqual([]);
  });

  it("finds the pairs that share something, at the level asked for", () => {
    const a = { files: ["m.py", "n.py"], symbols: ["m.py::A", "m.py::A.f"] };
    const b = { files: ["m.py"], symbols: ["m.py::g"] };
    const c = { files: ["n.py"], symbols: ["n.py::h"] };
    const d = { files: ["m.py"], symbols: ["m.py::A", "m.py::A.k"] };
    expect(pairwiseOverlap([a, b], "file")).toEqual([{ a: 1, b: 2, files: ["m.py"], symbols: [] }]);
    expect(pairwiseOverlap([a, b], "symbol")).toEqual([]);
    expect(pairwiseOverlap([b, c], "file")).toEqual([]);
    expect(pairwiseOverlap([b, c, d], "symbol")).toEqual([]);
    expect(pairwiseOverlap([c, b, a, d], "symbol")).toEqual([{ a: 3, b: 4, files: ["m.py"], symbols: ["m.py::A"] }]);
  });

  it("collects a patch's files, old and new names of a rename included", () => {
    const changes = changedLines(`diff --git a/x.py b/y.py\nsimilarity index 90%\nrename from x.py\nrename to y.py\n--- a/x.py\n+++ b/y.py\n@@ -1 +1 @@\n-a\n+b\n`);
    expect(footprint(changes, [["y.py::f"]])).toEqual({ files: ["x.py", "y.py"], symbols: ["y.py::f"] });
  });
});
