/**
 * The text fields of a submission upload (the web form, the HTTP API,
 * `chainswe submit`), besides the predictions file: one zod schema, and its
 * first problem as a FieldError naming the field.
 */
import { z } from "zod";
import { FieldError } from "@/core/errors";
import { splitSchema, submissionMetadataSchema } from "@/core/schemas/columns";
import { runManifestSchema } from "@/core/schemas/manifest";
import { modeSchema } from "@/core/schemas/prediction";

/** The predictions file's part in the multipart body. */
export const PREDICTIONS_FIELD = "predictions";
/** The optional trajectories archive's part (lib/submissions/trajectories.ts). */
export const TRAJECTORIES_FIELD = "trajectories";
/** The field naming an earlier run of the entry an upload is the next run of (SPEC §7). */
export const RUN_OF_FIELD = "run_of";

/** A field holding JSON text, checked by `schema` (an empty field is `empty`); `example` says what to send when it is not JSON. */
const jsonField = <T extends z.ZodType>(schema: T, example: string, empty: unknown) =>
  z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (text === "") return empty;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: `not JSON: send an object such as ${example}` });
        return z.NEVER;
      }
    })
    .pipe(schema);

const metadataJson = jsonField(
  submissionMetadataSchema.refine((m) => Object.keys(m).length <= 50, "at most 50 keys"),
  '{"scaffold_version": "1.2"}',
  {},
);

const chainList = z
  .string()
  .transform((s) => s.split(/[\s,]+/).filter(Boolean))
  .refine((ids) => ids.length > 0, "list at least one chain id, or leave the field out for every chain");

/**
 * The text fields of a submission upload (multipart/form-data), besides the
 * `predictions` file. `chains` may be comma- or space-separated, or repeated.
 */
export const submissionRequestSchema = z.object({
  /** the System's id (the web form's choice), or `<team slug>/<system name>` (`chainswe submit --system`) */
  system: z.string().trim().min(1, "required: the id of one of your team's systems, or <team>/<system name>"),
  dataset_version: z.string().trim().min(1, "required, e.g. v1"),
  mode: z.string().trim().pipe(modeSchema),
  /** JSON object of string, number, boolean or null values, shown beside the results */
  metadata: metadataJson.optional(),
  /** grade only these chains (default: every chain of the version) */
  chains: chainList.optional(),
  /** SPEC §8: "mini" grades the version's Mini split's chains, on its own board; default "full" */
  split: z.string().trim().pipe(splitSchema).optional(),
  /** the run manifest (core/schemas/manifest.ts), JSON: how the predictions were produced */
  manifest: jsonField(runManifestSchema.nullable(), '{"agent": {"name": "…", "version": "…"}, "model": "…", …} (docs/API.md)', null).optional(),
  /** a submission id: this upload is the next run of its entry (same system, version, mode and chains) */
  [RUN_OF_FIELD]: z
    .string()
    .trim()
    .transform((s) => s || undefined)
    .pipe(z.string().max(64).regex(/^[A-Za-z0-9_-]+$/, "a submission id").optional())
    .optional(),
  /** the team shows the trajectories once the submission is published: "true"/"on"/"1" (a checked box) or "false"/"0"/"" */
  trajectories_public: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(["true", "on", "1", "false", "0", ""], { error: 'one of "true" or "false"' }))
    .transform((v) => v === "true" || v === "on" || v === "1")
    .optional(),
});
export type SubmissionRequest = z.infer<typeof submissionRequestSchema>;

export const FIELD_NAMES = Object.keys(submissionRequestSchema.shape);
/** a field's text; metadata is the only long one */
export const MAX_FIELD_BYTES = 64 * 1024;

/** The fields, parsed; the first problem names its field. */
export function parseFields(fields: Record<string, string>): SubmissionRequest {
  const parsed = submissionRequestSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  // a nested field (the manifest's) is named in full: "limits.time_limit_multiplier: …"
  const inner = issue.path.slice(1).join(".");
  const message = issue.code === "invalid_value" && field === "mode" ? `must be one of ${modeSchema.options.join(", ")}` : inner ? `${inner}: ${issue.message}` : issue.message;
  throw new FieldError(field, fields[field] === undefined && issue.code === "invalid_type" ? "required" : message);
}
