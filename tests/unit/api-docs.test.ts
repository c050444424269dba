/**
 * docs/API.md and the route handlers under app/api/v1 cannot drift apart: every
 * method a route file exports is documented, and every route the document names
 * exists with that method.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const API = join(ROOT, "app", "api", "v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** `[id]` and `{id}` both become `{}`: the name of a path parameter does not matter. */
const normalise = (path: string) => path.replace(/\[[^\]]+\]|\{[^}]+\}/g, "{}").replace(/\/+$/, "");

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name === "route.ts" ? [join(dir, e.name)] : [],
  );
}

/** "GET /api/v1/…" for every method each route file exports. */
function implemented(): string[] {
  return routeFiles(API).flatMap((file) => {
    const path = normalise(`/api/v1/${relative(API, file).split(sep).slice(0, -1).join("/")}`);
    const source = readFileSync(file, "utf8");
    return METHODS.filter((m) => new RegExp(`export (async function|const) ${m}\\b`).test(source)).map((m) => `${m} ${path}`);
  });
}

/**
 * "GET /api/v1/…" for every route docs/API.md names: a method followed by a path
 * anywhere (headings, lists, code), and the paths in the first column of a table
 * under a "## GET …" heading (the dataset endpoints).
 */
function documented(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/v1\/[^\s?:`…,)]*)/g)) found.add(`${m[1]} ${normalise(m[2]!)}`);
  let heading = "";
  for (const line of markdown.split("\n")) {
    if (line.startsWith("#")) heading = line;
    const row = /^\| `(\/api\/v1\/[^`?]*)` \|/.exec(line);
    const method = /^#+ (GET|POST|PUT|PATCH|DELETE) /.exec(heading)?.[1];
    if (row && method) found.add(`${method} ${normalise(row[1]!)}`);
  }
  return [...found];
}

describe("docs/API.md", () => {
  const doc = documented(readFileSync(join(ROOT, "docs", "API.md"), "utf8"));
  const code = implemented();

  it("finds the route files (the scan itself works)", () => {
    expect(code).toContain("POST /api/v1/submissions");
    expect(code).toContain("GET /api/v1/submissions/{}/logs/{}/{}");
    expect(documented("## POST /api/v1/x/{id}: y\n## GET /api/v1/d…\n| `/api/v1/d/{v}` | a |\n")).toEqual(["POST /api/v1/x/{}", "GET /api/v1/d", "GET /api/v1/d/{}"]);
  });

  it("documents every route method under app/api/v1", () => {
    expect(code.filter((r) => !doc.includes(r)).sort()).toEqual([]);
  });

  it("documents no route that does not exist", () => {
    expect(doc.filter((r) => !code.includes(r)).sort()).toEqual([]);
  });
});
