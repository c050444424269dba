/**
 * What a chain proposal upload sends (the web form, POST /api/v1/proposals,
 * `chainswe propose`): the target dataset version and the chains file, in the
 * dataset format (SPEC §1; a file from `chainswe mine` or `select` as it is).
 */
import { z } from "zod";
import { FieldError } from "@/core/errors";
import type { MultipartForm } from "@/lib/submissions/multipart";

/** The chains file's part in the multipart body. */
export const CHAINS_FIELD = "chains";

export const proposalRequestSchema = z.object({
  dataset_version: z.string({ error: "required: the dataset version the chains are proposed for" }).trim().min(1, "required: the dataset version the chains are proposed for"),
});
export type ProposalRequest = z.infer<typeof proposalRequestSchema>;

export const PROPOSAL_FORM: MultipartForm = {
  fields: Object.keys(proposalRequestSchema.shape),
  files: { [CHAINS_FIELD]: "chains.jsonl" },
  together: "the chains file",
};

/** The fields, or a FieldError naming the first bad one. */
export function parseProposalFields(fields: Record<string, string>): ProposalRequest {
  const parsed = proposalRequestSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new FieldError(String(issue.path[0] ?? "body"), issue.message);
}
