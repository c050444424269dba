/**
 * The layers' arrows run one way (README, "Layout"), and the lint is what says so:
 * each case plants a forbidden import in a file of a layer, lints it with the
 * project's own ESLint config, and sees the rule fail it; the allowed imports
 * beside it pass. The planted files are linted as text under their path, never
 * written.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ABOVE_LAYERS, LAYERS, OUTSIDE_LAYERS } from "@/eslint.config.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
const eslint = new ESLint({ cwd: ROOT });
// import/no-cycle walks the files on disk: a planted file that is not there is linted without it, and a
// planted circle through files that are is checked without the rule's precomputed components of the graph
// on disk (where no circle exists); that the project's config holds the rule is checked apart
const eslintNoCycle = new ESLint({ cwd: ROOT, overrideConfig: [{ rules: { "import/no-cycle": "off" } }] });
const eslintFreshCycle = new ESLint({ cwd: ROOT, overrideConfig: [{ files: ["**/*.ts"], rules: { "import/no-cycle": ["error", { ignoreExternal: true, disableScc: true }] } }] });

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const linter = existsSync(`${ROOT}${filePath}`) ? eslintFreshCycle : eslintNoCycle;
  const [result] = await linter.lintText(code, { filePath: `${ROOT}${filePath}` });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

/** [layer file, forbidden import, the rule that refuses it] */
const FORBIDDEN: [string, string, string][] = [
  ["core/planted.ts", `import { env } from "@/env";`, "import/no-restricted-paths"],
  ["core/planted.ts", `import { env } from "../env";`, "import/no-restricted-paths"],
  ["core/scoring/planted.ts", `import { toCsv } from "@/lib/export/csv";`, "import/no-restricted-paths"],
  ["core/schemas/planted.ts", `import { loadDataset } from "@/evaluator/dataset";`, "import/no-restricted-paths"],
  ["core/planted.ts", `import { db } from "@/db/client";`, "import/no-restricted-paths"],
  ["db/planted.ts", `import { toCsv } from "@/lib/export/csv";`, "import/no-restricted-paths"],
  ["db/planted.ts", `import { loadDataset } from "@/evaluator/dataset";`, "import/no-restricted-paths"],
  ["db/planted.ts", `import { portalLoaders } from "../lib/site/queue-loaders";`, "import/no-restricted-paths"],
  ["db/planted.ts", `import { claimJob } from "@/jobs/queue";`, "import/no-restricted-paths"],
  ["jobs/queue/planted.ts", `import { portalLoaders } from "@/lib/site/queue-loaders";`, "import/no-restricted-paths"],
  ["jobs/distributed/planted.ts", `import { deliverDue } from "@/lib/notifications/deliveries";`, "import/no-restricted-paths"],
  ["jobs/queue/planted.ts", `import { agentCommand } from "@/demo/lib/agent";`, "import/no-restricted-paths"],
  ["evaluator/replay/planted.ts", `import { db } from "@/db/client";`, "import/no-restricted-paths"],
  ["evaluator/dataset/planted.ts", `import { toCsv } from "../../lib/export/csv";`, "import/no-restricted-paths"],
  ["evaluator/planted.ts", `import { claimJob } from "@/jobs/queue";`, "import/no-restricted-paths"],
  ["evaluator/dataset/planted.ts", `const { toCsv } = await import(new URL("lib/export/csv.ts", import.meta.url).href);`, "no-restricted-syntax"],
  ["lib/planted.ts", "const name = \"./csv\";\nconst { toCsv } = await import(name);", "no-restricted-syntax"],
  ["lib/planted.ts", `import { regradeAction } from "@/app/admin/actions";`, "import/no-restricted-paths"],
  // a circle: the scoring index re-exports outcomes.ts, so outcomes.ts may not import the index
  ["core/scoring/outcomes.ts", `import { countResolved } from "./index";`, "import/no-cycle"],
  ["lib/teams/planted.ts", `import { TeamCreateForm } from "../../components/teams/TeamCreateForm";`, "import/no-restricted-paths"],
  ["lib/planted.ts", `import { commandModules } from "@/cli/main";`, "import/no-restricted-paths"],
  ["components/admin/planted.tsx", `import { regradeAction } from "@/app/admin/actions";`, "import/no-restricted-paths"],
  ["components/planted.tsx", `import { commandModules } from "@/cli/main";`, "import/no-restricted-paths"],
  ["cli/planted.ts", `import { TeamCreateForm } from "@/components/teams/TeamCreateForm";`, "import/no-restricted-paths"],
];

/** [layer file, allowed import] */
const ALLOWED: [string, string][] = [
  ["core/planted.ts", `import { InputError } from "@/core/errors";`],
  ["core/scoring/planted.ts", `import { isTestPath } from "../diff";`],
  ["core/planted.ts", `import { z } from "zod";`],
  ["db/planted.ts", `import { env } from "@/env";`],
  ["db/planted.ts", `import { InputError } from "@/core/errors";`],
  ["db/planted.ts", `import { dbEngine } from "./schema";`],
  ["jobs/queue/planted.ts", `import { db } from "@/db/client";`],
  ["jobs/queue/planted.ts", `import { replayChain } from "@/evaluator/replay";`],
  ["jobs/distributed/planted.ts", `import { claimJob } from "../queue";`],
  ["evaluator/replay/planted.ts", `import { gradeBug } from "@/core/grading";`],
  ["evaluator/planted.ts", `import { env } from "@/env";`],
  ["lib/planted.ts", `const { toCsv } = await import("./export/csv");`],
  ["components/planted.tsx", `import { IDLE } from "@/lib/forms/result";`],
  ["app/admin/planted.tsx", `import { AdminRegradeForm } from "@/components/admin/AdminRegradeForm";`],
  ["cli/planted.ts", `import { seedDemo } from "@/lib/demo-seed";`],
];

describe("the layer rules", () => {
  it.each(["core/scoring/outcomes.ts", "lib/submissions/data.ts", "app/page.tsx", "jobs/queue/worker.ts"])("%s: the project's config refuses a circle of imports", async (file) => {
    const config = (await eslint.calculateConfigForFile(`${ROOT}${file}`)) as { rules: Record<string, unknown[]> };
    expect(config.rules["import/no-cycle"]?.[0]).toBe(2);
  });

  it.each(FORBIDDEN)("%s may not %s", async (file, line, rule) => {
    const ids = await ruleIdsFor(file, `${line}\nexport const planted = [${importedName(line)}];\n`);
    expect(ids).toContain(rule);
  });

  it.each(ALLOWED)("%s may %s", async (file, line) => {
    const ids = await ruleIdsFor(file, `${line}\nexport const planted = [${importedName(line)}];\n`);
    expect(ids).toEqual([]);
  });
});

function importedName(line: string): string {
  const name = /(?:import|const) \{ (\w+) \}/.exec(line)?.[1];
  if (!name) throw new Error(`no imported name in ${line}`);
  return name;
}

describe("the map of the layers", () => {
  it("names every top-level folder: a layer, above the layers, or outside them", () => {
    const tracked = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n");
    const folders = new Set(tracked.filter((f) => f.includes("/") && !f.startsWith(".")).map((f) => f.split("/")[0]));
    const named = new Set([...Object.keys(LAYERS), ...ABOVE_LAYERS, ...OUTSIDE_LAYERS]);
    expect([...folders].filter((f) => f && !named.has(f))).toEqual([]);
  });
});
