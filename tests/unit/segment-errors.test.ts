/**
 * Every top-level segment of the site (a folder under app/ that serves
 * pages) and the root have an error.tsx, so a failing page shows what failed
 * and a retry inside the site's frame instead of Next.js's bare error page.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const APP = join(__dirname, "..", "..", "app");

/** Whether the folder or any below it has a page.tsx. */
function servesPages(dir: string): boolean {
  return readdirSync(dir).some((f) => f === "page.tsx" || (statSync(join(dir, f)).isDirectory() && servesPages(join(dir, f))));
}

describe("segment error boundaries", () => {
  it("the root and each top-level page segment have an error.tsx that uses SegmentError", () => {
    const segments = readdirSync(APP).filter((f) => statSync(join(APP, f)).isDirectory() && f !== "api" && servesPages(join(APP, f)));
    expect(segments.length).toBeGreaterThan(10);
    const missing = ["", ...segments].filter((s) => !existsSync(join(APP, s, "error.tsx")));
    expect(missing).toEqual([]);
    const other = ["", ...segments].filter((s) => !readFileSync(join(APP, s, "error.tsx"), "utf8").includes("<SegmentError"));
    expect(other).toEqual([]);
  });
});
