import { defineConfig } from "vitest/config";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("./", import.meta.url));
const alias = { "@": ROOT };

/** The test files under `dirs` (node_modules and generated code left out), as paths from the root. */
function testFiles(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .map((f) => join(dir, f))
      .filter((f) => f.endsWith(".test.ts") && !/(^|\/)(node_modules|generated)\//.test(f)),
  );
}

/**
 * The files the pg project runs again on PostgreSQL: every test file that opens a test
 * database (openTestDb, lib/testing/test-db.ts), found by what it calls, so a new one is
 * never left out. A file that opens none runs the same on either engine: once, in unit
 * (the feature folders' pure tests, 288 of the 553 pg tests, ran twice before).
 */
const opensTestDb = testFiles(["lib", "jobs", "cli", "db", "evaluator", "tests/unit"]).filter((f) => readFileSync(join(ROOT, f), "utf8").includes("openTestDb("));

/**
 * Settings every project shares. Under CI a stray `.only` fails the run instead of
 * quietly narrowing it (tests/unit/ci-refuses-only.test.ts runs that refusal). Each
 * project sets its own time budget beside what its tests start: the budgets are
 * sized for a 2-core machine at load 7, several times a quiet run's times, so a
 * test fails for being wrong or hung, never for a busy machine.
 */
const shared = { environment: "node", allowOnly: !process.env.CI } as const;

export default defineConfig({
  resolve: { alias },
  test: {
    ...shared,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["core/**/*.test.ts", "db/**/*.test.ts", "jobs/**/*.test.ts", "evaluator/**/*.test.ts", "cli/**/*.test.ts", "lib/**/*.test.ts", "tests/unit/**/*.test.ts"],
          exclude: ["**/*.pg.test.ts", "**/node_modules/**"],
          ...shared,
          // besides pure functions: real git and shell scripts (the replay scripts in clones),
          // the CLI as a child process, SQLite files migrated per file, worker threads
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // the tests that open a database (the data layer, the sign-in limiter, the queue, the CLI's
        // submit and propose) again, on PostgreSQL (scripts/ensure-services.sh): same tests, other engine
        resolve: { alias },
        test: {
          name: "pg",
          include: [...opensTestDb, "lib/**/*.pg.test.ts", "db/**/*.pg.test.ts"],
          ...shared,
          env: { CHAINSWE_TEST_DB: "postgresql" },
          // a database created and migrated per file, the CLI as a child process
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // rebuilds the demo benchmark (host git + pytest) and compares it with the committed files: minutes
        resolve: { alias },
        test: {
          name: "demo",
          include: ["demo/**/*.test.ts"],
          ...shared,
          testTimeout: 900_000,
          hookTimeout: 900_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "docker",
          include: ["tests/docker/**/*.test.ts"],
          setupFiles: ["tests/docker/setup.ts"],
          ...shared,
          // whole chains replayed in containers, images built, sites and workers started
          testTimeout: 600_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
