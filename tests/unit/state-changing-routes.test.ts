/**
 * The CSRF tests (tests/e2e/hostile-web.spec.ts) forge one request per entry
 * of tests/e2e/hostile-routes.ts. This scan fails when app/ gains a route
 * handler method that changes state (POST, PUT, PATCH, DELETE) or the code
 * gains a server action that the list does not name, so no new way to change
 * something escapes those tests.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_ACTIONS, STATE_CHANGING_ROUTES } from "../e2e/hostile-routes";

const ROOT = new URL("../../", import.meta.url).pathname;
const METHODS = ["POST", "PUT", "PATCH", "DELETE"];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name === "generated" ? [] : files(path);
    return /\.(ts|tsx|js|jsx|mjs)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

/** Names a module exports as values: functions, consts, and `export { a as b }` lists. */
function exportedNames(source: string): string[] {
  const names = [...source.matchAll(/^export\s+(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
  for (const list of source.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    for (const part of list[1]!.split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()?.trim();
      if (name && !part.trim().startsWith("type ")) names.push(name);
    }
  }
  if (/^export\s+\*/m.test(source)) names.push("<export * from …: list its names by hand>");
  return names;
}

/** A module whose first statement (after comments) is the "use server" directive. */
const isServerModule = (source: string) => /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use server["']/.test(source);

function scan(): { routes: string[]; actions: string[]; inline: string[]; unchecked: string[] } {
  const routes: string[] = [];
  const actions: string[] = [];
  const inline: string[] = [];
  const unchecked: string[] = [];
  for (const path of ["app", "lib", "components"].flatMap(files)) {
    const file = relative(ROOT, join(ROOT, path));
    const source = readFileSync(join(ROOT, path), "utf8");
    if (file.startsWith("app/") && /\/route\.[jt]sx?$/.test(file)) {
      for (const name of exportedNames(source)) if (METHODS.includes(name)) routes.push(`${file} ${name}`);
    }
    if (isServerModule(source)) {
      for (const name of exportedNames(source)) {
        actions.push(`${file} ${name}`);
        if (!new RegExp(`^export const ${name} = formAction\\(`, "m").test(source)) unchecked.push(`${file} ${name}`);
      }
    } else if (/["']use server["']/.test(source)) {
      inline.push(file); // a "use server" inside a function: an action this scan cannot name
    }
  }
  return { routes: routes.sort(), actions: actions.sort(), inline, unchecked };
}

describe("every state-changing route and server action is in the CSRF tests' list", () => {
  const found = scan();

  it("route handlers exporting POST, PUT, PATCH or DELETE", () => {
    expect(found.routes).toEqual([...STATE_CHANGING_ROUTES].sort());
  });

  it("exported server actions, and no inline ones", () => {
    expect(found.actions).toEqual([...SERVER_ACTIONS].sort());
    expect(found.inline).toEqual([]);
  });

  it("every server action checks its arguments (lib/forms/action.ts), so a forged call is a 400, not a 500", () => {
    expect(found.unchecked).toEqual([]);
  });

  it("the scan itself reads the export forms the app uses", () => {
    expect(exportedNames("export async function POST(req) {}\nexport const PATCH = h;\nexport { handler as GET, handler as DELETE, type X };\nexport type Y = 1;")).toEqual([
      "POST",
      "PATCH",
      "GET",
      "DELETE",
    ]);
    expect(isServerModule('/** doc */\n// note\n"use server";\nexport async function a() {}')).toBe(true);
    expect(isServerModule('import x from "y";\nasync function f() { "use server"; }')).toBe(false);
  });
});
