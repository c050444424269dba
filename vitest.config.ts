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
          environment: "node",
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
          environment: "node",
          testTimeout: 600_000,
          hookTimeout: 900_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
