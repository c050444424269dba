/**
 * `chainswe bundle DIR --out FILE [--held-out id…]`: an evaluation directory
 * as a reproducibility bundle, the version's held-out chains left out when
 * named (SPEC §8); `chainswe verify BUNDLE`: the bundle checked offline
 * (manifest, re-grade of every log, scores), and with --replay in Docker where
 * the images are present. Exit 1 when anything disagrees, naming the file.
 */
import { rename, writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { z } from "zod";
import { verifyBundle, type BundleProblem } from "@/evaluator/bundle";
import { bundleArchive, readBundle } from "@/evaluator/bundle/archive";
import { bundleFromDir } from "@/evaluator/bundle/from-dir";
import { parseOptions, readableFile, runDir } from "./options";

export const bundleOptionsSchema = z.object({
  dir: runDir,
  out: z.string().min(1),
  dataset: readableFile.optional(),
  predictions: readableFile.optional(),
  heldOut: z.array(z.string().trim().min(1, "an empty chain id")).optional(),
});

export const verifyOptionsSchema = z.object({
  bundle: readableFile,
  replay: z.boolean().optional(),
  json: z.boolean().optional(),
});

const problemLines = (problems: BundleProblem[]) => problems.map((p) => `  ${p.file}: ${p.problem}`);

export function registerBundle(program: Command): void {
  program
    .command("bundle <dir>")
    .description("pack an evaluation directory as a reproducibility bundle (.tar.gz) that `chainswe verify` checks")
    .requiredOption("--out <file>", "where to write the bundle")
    .option("--dataset <file>", "the run's dataset (default: the file summary.json names; its sha256 must match)")
    .option("--predictions <file>", "the run's predictions (default: the file summary.json names; its sha256 must match)")
    .option("--held-out <ids...>", "the version's held-out chains (chainswe dataset held-out <version> prints them), left out as the portal leaves them out for all but reviewers; a reviewer's bundle names none")
    .action(async (dir: string, raw: Record<string, unknown>) => {
      const opts = parseOptions("bundle", bundleOptionsSchema, { ...raw, dir }, ["dir"]);
      const files = await bundleFromDir(opts.dir, opts);
      // written whole or not at all: a failed write leaves no half archive under the name asked for
      const tmp = `${opts.out}.partial`;
      await writeFile(tmp, await bundleArchive(files));
      await rename(tmp, opts.out);
      process.stdout.write(`${opts.out}: ${files.size} files, manifest with the sha256 of each\n`);
    });
  program
    .command("verify <bundle>")
    .description("check a reproducibility bundle offline: every file against its manifest, every log re-graded against results.jsonl, the scores against report.json")
    .option("--replay", "also replay the predictions in Docker for the chains whose images are here, and compare every verdict")
    .option("--json", "print the check as JSON")
    .action(async (bundle: string, raw: Record<string, unknown>) => {
      const opts = parseOptions("verify", verifyOptionsSchema, { ...raw, bundle }, ["bundle"]);
      const files = await readBundle(opts.bundle);
      const check = verifyBundle(files);
      const replay = opts.replay ? await (await import("@/evaluator/bundle/replay-check")).replayBundle(files) : null;
      const problems = [...check.problems, ...(replay?.problems ?? [])];
      if (opts.json) process.stdout.write(`${JSON.stringify({ ...check, replay, problems }, null, 2)}\n`);
      else {
        const lines = [
          `${opts.bundle}: ${files.size} files, ${check.regraded}/${check.bugs} bug(s) re-graded from their logs` +
            (replay ? `; replayed ${replay.replayed.length} chain(s)${replay.skipped.length ? `, skipped ${replay.skipped.join(", ")}` : ""}` : ""),
          problems.length ? `${problems.length} disagreement(s):` : "OK: the manifest, every verdict and every score agree",
          ...problemLines(problems),
        ];
        process.stdout.write(`${lines.join("\n")}\n`);
      }
      if (problems.length) process.exitCode = 1;
    });
}
