/**
 * A stray `.only` must not narrow a CI run. Under CI=true, as .ci/run runs,
 * vitest (allowOnly in vitest.config.ts) and Playwright (forbidOnly in
 * playwright.config.ts) refuse a test file that has one: each runner is run
 * for real, with the project's own config, on a file of its own. Without CI
 * the same files run, so the refusal comes from the CI setting.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "chainswe-only-"));
  // the probe files import the runners from the project's own modules
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  mkdirSync(join(dir, "tests", "unit"), { recursive: true });
  writeFileSync(join(dir, "tests", "unit", "focused.test.ts"), 'import { it } from "vitest";\nit.only("focused", () => {});\nit("other", () => {});\n');
  writeFileSync(join(dir, "focused.spec.ts"), 'import { test } from "@playwright/test";\ntest.only("focused", () => {});\ntest("other", () => {});\n');
  // the project's Playwright config with the probe's folder as its tests, and no site to start
  writeFileSync(
    join(dir, "playwright.config.ts"),
    `import config from ${JSON.stringify(join(ROOT, "playwright.config.ts"))};\nexport default { ...config, testDir: ${JSON.stringify(dir)}, globalSetup: undefined };\n`,
  );
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a runner's CLI in the probe's folder, as CI would (CI=true) or as a developer would (no CI). */
function run(args: string[], ci: boolean) {
  // nothing of this test's own runner leaks into the one it starts
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "CI" && !k.startsWith("VITEST") && k !== "NODE_ENV" && k !== "TEST"));
  const r = spawnSync(process.execPath, args, { cwd: dir, env: { ...env, ...(ci ? { CI: "true" } : {}) } as NodeJS.ProcessEnv, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const vitest = () => [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--config", join(ROOT, "vitest.config.ts"), "--root", dir, "--project", "unit"];
const playwright = () => [join(ROOT, "node_modules", "@playwright", "test", "cli.js"), "test", "--config", join(dir, "playwright.config.ts"), "--list"];

// one runner started per test: each starts in seconds, tens of seconds on a loaded machine
describe("a stray .only under CI", () => {
  it("vitest refuses it with the project's config", () => {
    const ci = run(vitest(), true);
    expect(ci.status, ci.output).not.toBe(0);
    expect(ci.output).toMatch(/\.only/);
  });

  it("vitest runs it without CI", () => {
    const local = run(vitest(), false);
    expect(local.status, local.output).toBe(0);
    expect(local.output).toMatch(/1 passed/);
  });

  it("Playwright refuses it with the project's config", () => {
    const ci = run(playwright(), true);
    expect(ci.status, ci.output).not.toBe(0);
    expect(ci.output).toMatch(/forbidOnly/);
  });

  it("Playwright lists it without CI", () => {
    const local = run(playwright(), false);
    expect(local.status, local.output).toBe(0);
    expect(local.output).toContain("focused");
  });
});
