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
  workers: 1,
  timeout: 8 * 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
});
