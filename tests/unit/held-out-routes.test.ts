/**
 * Every page and route handler under app/ says what it may show of a held-out
 * chain (tests/e2e/held-out-routes.ts), and every entry there names a file that
 * exists: a new page or route fails here until it is listed, and so fetched
 * by the held-out browser test, or said to show no chain.
 */
import { existsSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { HELD_OUT_ROUTES } from "../e2e/held-out-routes";

const ROOT = new URL("../../", import.meta.url).pathname;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? routeFiles(join(dir, e.name)) : e.name === "page.tsx" || e.name === "route.ts" ? [relative(ROOT, join(dir, e.name)).split(sep).join("/")] : [],
  );
}

describe("held-out chains: every page and route decided", () => {
  it("lists every page.tsx and route.ts under app/, once", () => {
    const listed = HELD_OUT_ROUTES.map((r) => r.file);
    expect(new Set(listed).size).toBe(listed.length);
    expect(routeFiles(join(ROOT, "app")).filter((f) => !listed.includes(f))).toEqual([]);
  });

  it("names only files that exist, each fetched at an address of its own path", () => {
    for (const r of HELD_OUT_ROUTES) {
      expect(existsSync(join(ROOT, r.file)), r.file).toBe(true);
      if (!("fetch" in r)) continue;
      expect(r.fetch.length, r.file).toBeGreaterThan(0);
      // the file's path with its parameters as the placeholders fill them
      const path = r.file
        .replace(/^app/, "")
        .replace(/\/(page\.tsx|route\.ts)$/, "")
        .replace(/\[[^\]]+\]/g, "[^/]+");
      for (const url of r.fetch) expect(url.split("?")[0]!.replace(/\{[^}]+\}/g, "x"), r.file).toMatch(new RegExp(`^${path || "/"}$`));
    }
  });
});
