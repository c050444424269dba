/**
 * Browser tests: Debian's Chromium drives the real site that
 * tests/e2e/global-setup.ts builds and starts. One worker: the specs share the
 * site and its evaluation worker, and each waits for real Docker evaluations.
 */
import { defineConfig } from "@playwright/test";

const port = Number(process.env.CHAINSWE_E2E_PORT ?? 3210);

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: /.*\.spec\.ts/,
  globalSetup: "./tests/e2e/global-setup.ts",
  // under CI a stray test.only fails the run instead of quietly narrowing it (tests/unit/ci-refuses-only.test.ts)
  forbidOnly: !!process.env.CI,
  // the second run is there for its trace, never to pass in the failure's place: a test that passes
  // only on its retry fails the run
  retries: 1,
  failOnFlakyTests: true,
  workers: 1,
  // Budgets for a loaded 2-core machine (load 7, or the suite under scripts/test-under-load.sh):
  // a test waits for real Docker evaluations, the site renders beside the Docker tests.
  // They only bound a hung test; a passing one never waits for them.
  timeout: 12 * 60_000,
  expect: { timeout: 30_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    actionTimeout: 60_000,
    navigationTimeout: 90_000,
    screenshot: "only-on-failure",
    // A test's first run records no trace: recording one for every test, passing ones included, to keep
    // it only on a failure cost reading.spec.ts 13% more CPU and 17% more time (docs/BENCHMARKS.md, the
    // test suite's time). A failed test runs once more and that run records its trace (DOM snapshots,
    // network, console; no screencast frames), beside the first run's screenshot.
    trace: { mode: "on-first-retry", screenshots: false, snapshots: true, sources: false },
  },
});
