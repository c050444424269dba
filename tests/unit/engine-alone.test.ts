/**
 * The engine builds alone: core/, evaluator/ and env.ts, copied into an empty
 * directory with nothing of lib/, db/, jobs/, app/, components/ or cli/
 * beside them, type-check with the project's compiler settings. One file is
 * planted that imports the portal: its error, and only its, shows that the
 * check would see any other import of a folder that is not there.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "chainswe-engine-alone-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("core/ and evaluator/ type-check with nothing of the portal present; an import of it is an error", () => {
  for (const part of ["core", "evaluator", "env.ts", "package.json"]) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const { compilerOptions } = JSON.parse(readFileSync(join(ROOT, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  const { plugins: _, incremental: __, ...options } = compilerOptions;
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: options, include: ["core/**/*.ts", "evaluator/**/*.ts", "env.ts"], exclude: ["**/*.test.ts", "node_modules"] }),
  );
  writeFileSync(join(dir, "evaluator", "planted.ts"), `import { toCsv } from "@/lib/export/csv";\nexport const planted = toCsv;\n`);
  const tsc = spawnSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { cwd: dir, encoding: "utf8" });
  const errors = tsc.stdout.split("\n").filter((l) => /error TS\d+/.test(l));
  expect(errors).toEqual([expect.stringMatching(/^evaluator\/planted\.ts\(1,\d+\): error TS2307: Cannot find module '@\/lib\/export\/csv'/)]);
});
