/**
 * A reproducibility bundle (docs/SPEC.md §7): one archive per completed
 * submission that lets anyone re-check its results without trusting the server
 * that made them. Pure: the files are built from plain data, and the archive
 * I/O lives in archive.ts.
 *
 * Layout: predictions.jsonl, results.jsonl, summary.json,
 * logs/<chain>/<order>/{test_output.txt,model.patch}, dataset.jsonl (the
 * records the run was graded against) with its sha256 in environment.json
 * beside the image ids and digests, the limits and the grader and package
 * versions, report.json (the §5 analysis of this run, recomputable from
 * results.jsonl), and manifest.json: the sha256 of every other file.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { buildReport } from "@/core/analysis/report";
import { GRADER_VERSION, PACKAGE_VERSION } from "@/core/grading";
import { bugLogDir } from "@/evaluator/replay/output";
import { runSummarySchema, type GradedBug, type RunSummary } from "@/core/schemas/results";

export const MANIFEST_FILE = "manifest.json";
export const BUNDLE_VERSION = 1;

/** Where a bug's files are in the bundle: as in an evaluation directory. */
export const bundleLogPath = (continuousId: string, order: number, file: "test_output.txt" | "model.patch") => `${bugLogDir("", continuousId, order)}/${file}`;

export const environmentSchema = z.object({
  bundle_version: z.literal(BUNDLE_VERSION),
  grader_version: z.string(),
  package_version: z.string(),
  /** dataset.jsonl's sha256, and that of the file the run (or the portal's dataset version) was imported from */
  dataset: z.object({ name: z.string(), sha256: z.string(), source_sha256: z.string() }),
  /** whether predictions.jsonl and each model.patch are in the bundle (the portal gives them to the team and reviewers only) */
  patches_included: z.boolean(),
  /** each image the chains name; id and digests where the engine that made the bundle had it (null, [] otherwise) */
  images: z.array(z.object({ image: z.string(), id: z.string().nullable(), digests: z.array(z.string()) })),
  limits: runSummarySchema.shape.limits,
});
export type BundleEnvironment = z.infer<typeof environmentSchema>;

export const manifestSchema = z.object({
  bundle_version: z.literal(BUNDLE_VERSION),
  /** path → sha256 (hex) of every file of the bundle but the manifest */
  files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
});

export type BundleInput = {
  summary: RunSummary;
  bugs: GradedBug[];
  /** `<chain>/<order>` → the bug's test log and the model patch as applied */
  logs: Map<string, { log: string | null; modelPatch: string }>;
  /** null: the patches are withheld (no predictions.jsonl, no model.patch) */
  predictionsJsonl: string | null;
  /** the dataset records, one JSON object per line */
  datasetJsonl: string;
  datasetName: string;
  images: BundleEnvironment["images"];
};

export const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");
const jsonFile = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
export const bugKey = (continuousId: string, order: number) => `${continuousId}/${order}`;

/** The bundle's files, manifest included, by path. */
export function bundleFiles(input: BundleInput): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (input.predictionsJsonl !== null) files.set("predictions.jsonl", Buffer.from(input.predictionsJsonl));
  files.set("results.jsonl", Buffer.from(input.bugs.map((b) => `${JSON.stringify(b)}\n`).join("")));
  files.set("summary.json", jsonFile(input.summary));
  for (const b of input.bugs) {
    const stored = input.logs.get(bugKey(b.continuous_id, b.order));
    if (stored?.log != null) files.set(bundleLogPath(b.continuous_id, b.order, "test_output.txt"), Buffer.from(stored.log));
    if (input.predictionsJsonl !== null) files.set(bundleLogPath(b.continuous_id, b.order, "model.patch"), Buffer.from(stored?.modelPatch ?? ""));
  }
  files.set("dataset.jsonl", Buffer.from(input.datasetJsonl));
  const environment: BundleEnvironment = {
    bundle_version: BUNDLE_VERSION,
    grader_version: GRADER_VERSION,
    package_version: PACKAGE_VERSION,
    dataset: { name: input.datasetName, sha256: sha256(input.datasetJsonl), source_sha256: input.summary.dataset.sha256 },
    patches_included: input.predictionsJsonl !== null,
    images: input.images,
    limits: input.summary.limits,
  };
  files.set("environment.json", jsonFile(environment));
  files.set("report.json", jsonFile(buildReport([{ summary: input.summary, bugs: input.bugs }])));
  const manifest = { bundle_version: BUNDLE_VERSION, files: Object.fromEntries([...files].map(([path, data]) => [path, sha256(data)])) };
  files.set(MANIFEST_FILE, jsonFile(manifest));
  return files;
}
