import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

const alias = { "@": fileURLToPath(new URL("./", import.meta.url)) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["evaluator/**/*.test.ts", "lib/**/*.test.ts", "tests/unit/**/*.test.ts"],
          exclude: ["**/*.pg.test.ts", "**/node_modules/**"],
          environment: "node",
        },
      },
      {
        // the data layer (the feature folders' tests, the sign-in limiter) and the queue again, on PostgreSQL
        // (scripts/ensure-services.sh): same tests, other engine
        resolve: { alias },
        test: {
          name: "pg",
          include: ["lib/{accounts,analysis,compare,dataset,leaderboard,notifications,positions,submissions,teams}/*.test.ts", "lib/auth/login-limit.test.ts", "lib/**/*.pg.test.ts", "evaluator/queue/*.test.ts", "evaluator/cli/submit.test.ts"],
          environment: "node",
          env: { CHAINSWE_TEST_DB: "postgresql" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // rebuilds the demo benchmark (host git + pytest) and compares it with the committed files: minutes
        resolve: { alias },
        test: {
          name: "demo",
          include: ["demo/**/*.test.ts"],
          environment: "node",
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
          environment: "node",
          testTimeout: 600_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
