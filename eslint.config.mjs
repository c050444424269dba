// ESLint: Next.js's recommended rules, plus the boundaries that keep the
// layout honest (README, "Layout"). `npm run lint` runs it with tsc.
// A file gets one no-restricted-imports setting (the last block matching it
// wins), so the blocks that set it match disjoint files.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * The data layer: every lib/ module that talks to the database (imports
 * @/db/client), found here rather than listed, so a new one is covered at once.
 */
const DATA_MODULES = readdirSync("lib", { recursive: true, encoding: "utf8" })
  .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.startsWith("testing"))
  .filter((f) => /from "@\/db\/client"/.test(readFileSync(join("lib", f), "utf8")))
  .map((f) => `@/lib/${f.replace(/\.tsx?$/, "")}`);

/** The pure core: schemas, errors, formats, diff, parsers, grading, scoring, analysis, trajectory scan. Plain data in and out. */
const CORE = ["core/**"];
/** The benchmark's code does not know the demo (the CLI's demo command aside): the demo registers itself (demo/agent.mjs). */
const NO_DEMO = { group: ["@/demo/*"], message: "evaluator/ does not import the demo" };
const QUEUE = ["evaluator/queue/**", "evaluator/distributed/**"];
const TESTS = ["**/*.test.ts", "**/*.test.tsx", "tests/**", "lib/testing/**", "**/test-fixtures.ts"];

/** What lib/ (the portal's data layer) may take from evaluator/: the dataset readers, the queue's API, re-grading, stored logs, the engine check. */
const LIB_MAY_IMPORT = [
  "dataset",
  "regrade",
  "bundle",
  "queue",
  "sandbox",
].flatMap((m) => [`!@/evaluator/${m}`, `!@/evaluator/${m}/*`]);
// of the replay engine, only how its stored logs and outputs read (a pattern cannot re-include below an excluded folder)
const LIB_MAY_IMPORT_REPLAY = ["!@/evaluator/replay", "@/evaluator/replay/*", "!@/evaluator/replay/log", "!@/evaluator/replay/output"];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "db/generated/**", "node_modules/**", "demo/work/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    rules: {
      // `_`-prefixed parameters are the signature's (server actions' previous state), not forgotten
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // the layers' arrows run one way (README, "Layout"): core/ imports nothing of the project
    // but package.json (the grader's version); tests are not a layer and may use fixtures
    files: ["core/**"],
    ignores: TESTS,
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [{ target: "./core", from: "./", except: ["./core", "./package.json", "./node_modules"], message: "core/ is the pure domain: it imports nothing of the project" }],
        },
      ],
    },
  },
  {
    // db/ (the Prisma client, its migrations, the transaction type) stands on core/ and env.ts alone
    files: ["db/**"],
    ignores: TESTS,
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [{ target: "./db", from: "./", except: ["./db", "./core", "./env.ts", "./node_modules"], message: "db/ imports only core/ and env.ts" }],
        },
      ],
    },
  },
  {
    files: CORE,
    ignores: TESTS,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["dockerode", "fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process", "@/db/client"].map((name) => ({
            name,
            message: "core/ is pure: no Docker, database or files",
          })),
          patterns: [
            { group: ["@prisma/*", "@/db/generated/*", ...DATA_MODULES, "@/evaluator/sandbox", "@/evaluator/sandbox/*", "@/evaluator/queue", "@/evaluator/queue/*"], message: "the pure core takes plain data: no Docker, database or queue" },
            NO_DEMO,
          ],
        },
      ],
    },
  },
  {
    // the queue and the distributed workers own job state; the portal's data layer reaches them as loaders (lib/queue-loaders.ts)
    files: QUEUE,
    ignores: TESTS,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              // …and the notification row an evaluation's end writes in its own transaction (lib/notifications/record.ts)
              group: ["@/lib/*", "!@/lib/notifications", "@/lib/notifications/*", "!@/lib/notifications/record"],
              message: "the queue imports no portal feature: it is handed loaders (lib/queue-loaders.ts)",
            },
            NO_DEMO,
          ],
        },
      ],
    },
  },
  {
    // the dispatcher and the distributed workers reach job state only through evaluator/queue: one owner
    files: ["evaluator/distributed/**"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["@/lib/*"],
              message: "job state is the queue's: read and write it through evaluator/queue, which is handed the portal's loaders",
            },
            NO_DEMO,
          ],
        },
      ],
    },
  },
  {
    // one no-restricted-imports per file: the core and the queue carry NO_DEMO in their own blocks
    files: ["evaluator/**"],
    ignores: [...TESTS, ...QUEUE, "evaluator/cli/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_DEMO] }] },
  },
  {
    files: ["lib/**"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "@/evaluator/replay", message: "lib/ reads stored replay logs and outputs, it does not replay" }],
          patterns: [
            { group: ["@/evaluator/*", ...LIB_MAY_IMPORT, ...LIB_MAY_IMPORT_REPLAY], message: "lib/ takes from evaluator/ only what eslint.config.mjs names (LIB_MAY_IMPORT)" },
            { group: ["@/components/*", "@/app/*"], message: "lib/ serves the pages: it imports nothing from them" },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: [...DATA_MODULES, "@/db/client"], allowTypeImports: true, message: "components render what pages pass them: types from the data layer, never its functions" },
          ],
        },
      ],
    },
  },
  {
    files: ["app/**", "components/**", "lib/**", "evaluator/**", "demo/**", "server.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "settings are read through env.ts (env())" }],
    },
  },
]);
