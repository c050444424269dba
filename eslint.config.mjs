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
const TESTS = ["**/*.test.ts", "**/*.test.tsx", "tests/**", "lib/testing/**", "**/test-fixtures.ts"];

/** What lib/ (the portal's data layer) may take from evaluator/: the dataset readers, the queue's API, re-grading, stored logs, the engine check. */
const LIB_MAY_IMPORT = [
  "dataset",
  "regrade",
  "bundle",
  "sandbox",
].flatMap((m) => [`!@/evaluator/${m}`, `!@/evaluator/${m}/*`]);
// of the replay engine, only how its stored logs and outputs read (a pattern cannot re-include below an excluded folder)
const LIB_MAY_IMPORT_REPLAY = ["!@/evaluator/replay", "@/evaluator/replay/*", "!@/evaluator/replay/log", "!@/evaluator/replay/output"];

/**
 * The layers, lowest first, and what each may import besides itself and packages
 * (README, "Layout"). core/ takes package.json for the grader's version; jobs/ is
 * handed the portal's loaders (lib/site/queue-loaders.ts), it never imports lib/.
 */
export const LAYERS = {
  core: ["package.json"],
  db: ["core", "env.ts"],
  jobs: ["evaluator", "db", "core", "env.ts"],
  evaluator: ["core", "env.ts"],
};
/** The top-level folders above the layers (entry points, the portal) and those that hold no layer's code. */
export const ABOVE_LAYERS = ["app", "cli", "components", "lib"];
export const OUTSIDE_LAYERS = ["bench", "bin", "data", "demo", "deploy", "docs", "prisma", "public", "scripts", "tests"];
const LAYER_ZONES = Object.entries(LAYERS).map(([layer, may]) => ({
  target: `./${layer}`,
  from: "./",
  except: [`./${layer}`, "./node_modules", ...may.map((m) => `./${m}`)],
  message: `${layer}/ imports only ${may.length ? may.join(", ") : "nothing of the project"}`,
}));
/**
 * Above the layers the arrows run one way too: app/ (pages, routes, server actions) over
 * components/ (a page hands its form the server action), over lib/; cli/ is an entry point
 * beside app/, and neither takes from the other.
 */
const ABOVE_ZONES = [
  { target: "./lib", from: ["./app", "./components", "./cli", "./server.ts"], message: "lib/ serves the pages and the CLI: it imports nothing from them" },
  { target: "./components", from: ["./app", "./cli", "./server.ts"], message: "components/ render what pages pass them, server actions included: nothing from app/ or cli/" },
  { target: "./cli", from: ["./app", "./components", "./server.ts"], message: "cli/ is an entry point beside app/: nothing from app/ or components/" },
];

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
    // an import the linter can read: a static path, never import(new URL(…)) or another expression,
    // so the layer rules below see every arrow
    rules: {
      "no-restricted-syntax": ["error", { selector: "ImportExpression[source.type!='Literal']", message: "import a static path: the layer rules cannot read an expression" }],
    },
  },
  {
    // the layers' arrows run one way (README, "Layout"); tests are not a layer and may use fixtures
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: TESTS,
    rules: {
      "import/no-restricted-paths": ["error", { zones: [...LAYER_ZONES, ...ABOVE_ZONES] }],
      // no circle of imports, inside a layer either (type-only imports do not count: they leave no runtime arrow)
      "import/no-cycle": ["error", { ignoreExternal: true }],
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
            { group: ["@prisma/*", "@/db/generated/*", ...DATA_MODULES, "@/evaluator/sandbox", "@/evaluator/sandbox/*", "@/jobs/queue", "@/jobs/queue/*"], message: "the pure core takes plain data: no Docker, database or queue" },
            NO_DEMO,
          ],
        },
      ],
    },
  },
  {
    // one no-restricted-imports per file: the core carries NO_DEMO in its own block
    files: ["evaluator/**"],
    ignores: TESTS,
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
    files: ["app/**", "cli/**", "components/**", "lib/**", "jobs/**", "db/**", "core/**", "evaluator/**", "demo/**", "server.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "settings are read through env.ts (env())" }],
    },
  },
]);
