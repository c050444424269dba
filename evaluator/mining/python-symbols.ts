/**
 * Python class and function definitions with their line spans, from tree-sitter-python
 * through web-tree-sitter (a real parser: decorators, nested classes, async defs and
 * strings that look like code are all handled by the grammar, not by us).
 */
import { createRequire } from "node:module";
import { Language, Parser, type Node } from "web-tree-sitter";
import type { Definition } from "./overlap";

let parser: Promise<Parser> | null = null;

/** The grammar is loaded once per process (the wasm takes ~50 ms). */
function pythonParser(): Promise<Parser> {
  parser ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve("tree-sitter-python/tree-sitter-python.wasm");
    const p = new Parser();
    p.setLanguage(await Language.load(wasm));
    return p;
  })();
  return parser;
}

const KINDS: Record<string, Definition["kind"]> = { class_definition: "class", function_definition: "function" };

function collect(node: Node, scope: string[], out: Definition[]): void {
  const kind = KINDS[node.type];
  let inner = scope;
  if (kind) {
    const name = node.childForFieldName("name")?.text ?? "?";
    inner = [...scope, name];
    // a decorator line belongs to the definition it decorates
    const span = node.parent?.type === "decorated_definition" ? node.parent : node;
    out.push({ kind, name: inner.join("."), start: span.startPosition.row + 1, end: span.endPosition.row + 1 });
  }
  for (const child of node.namedChildren) if (child) collect(child, inner, out);
}

/** Definitions of a Python source text; a file that does not parse still yields what the parser recovered. */
export async function pythonDefinitions(source: string): Promise<Definition[]> {
  const tree = (await pythonParser()).parse(source);
  if (!tree) return [];
  try {
    const out: Definition[] = [];
    collect(tree.rootNode, [], out);
    return out;
  } finally {
    tree.delete();
  }
}
