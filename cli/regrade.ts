import { stat } from "node:fs/promises";
import type { Command } from "commander";
import { loadDataset } from "@/evaluator/dataset";
import { formatDirRegrade, regradeDir } from "@/evaluator/regrade";
import { SUMMARY_FILE } from "@/evaluator/replay/output";
import { InputError } from "@/core/errors";

/** Every DIR must be an evaluation directory before any is touched. */
async function checkDirs(dirs: string[]): Promise<void> {
  const issues = [];
  for (const [i, dir] of dirs.entries()) {
    const ok = await stat(`${dir}/${SUMMARY_FILE}`).then((s) => s.isFile(), () => false);
    if (!ok) issues.push({ line: i + 1, field: "DIR", message: `${dir} is not an evaluation directory (no ${SUMMARY_FILE})` });
  }
  if (issues.length) throw new InputError("regrade", issues);
}

export function registerRegrade(program: Command): void {
  program
    .command("regrade <dirs...>")
    .description("re-grade evaluation directories from their stored test logs with the current grader (no Docker); prints every verdict that changed")
    .option("--dataset <file>", "the dataset the runs used, for the bugs' lists and parsers (default: the file summary.json names, if unchanged)")
    .option("--json", "print the re-grade reports as JSON")
    .action(async (dirs: string[], opts: { dataset?: string; json?: boolean }) => {
      await checkDirs(dirs);
      const dataset = opts.dataset ? await loadDataset(opts.dataset) : undefined;
      const reports = [];
      for (const dir of dirs) reports.push(await regradeDir(dir, { dataset }));
      process.stdout.write(opts.json ? `${JSON.stringify(reports, null, 2)}\n` : `${reports.map(formatDirRegrade).join("\n")}\n`);
      // a bug that could not be re-graded is a failure of the command, as a failing chain is for validate
      if (reports.some((r) => r.failures.length > 0)) process.exitCode = 1;
    });
}
