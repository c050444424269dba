import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const alias = { "@": fileURLToPath(new URL("./", import.meta.url)) };

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
        // the data layer (the feature folders' tests, the sign-in limiter) and the queue again, on PostgreSQL
        // (scripts/ensure-services.sh): same tests, other engine
        resolve: { alias },
        test: {
          name: "pg",
          include: ["lib/{accounts,analysis,compare,dataset,leaderboard,notifications,positions,proposals,submissions,teams}/*.test.ts", "lib/auth/login-limit.test.ts", "lib/**/*.pg.test.ts", "db/**/*.pg.test.ts", "jobs/queue/*.test.ts", "jobs/validation/*.test.ts", "cli/submit.test.ts", "cli/propose.test.ts"],
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
