"use server";
/**
 * A reviewer's decision on a proposed chain. The action reads the viewer itself
 * (server actions are public endpoints) and leaves the rules to
 * lib/proposals/review.ts; refusals come back as an ActionResult.
 */
import { revalidatePath } from "next/cache";
import { formAction } from "@/lib/forms/action";
import { getViewer } from "@/lib/auth/viewer";
import { reviewProposedChain } from "@/lib/proposals/review";
import { failure, ok, type ActionResult } from "@/lib/forms/result";

/** Accept or reject: the form's "decision" and "reason" fields; bound to the proposal and the chain. */
export const reviewChainAction = formAction({ bound: 2 }, async (proposalId: string, chainId: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const viewer = await getViewer();
  try {
    const review = await reviewProposedChain(viewer, chainId, { decision: form.get("decision"), reason: form.get("reason") ?? undefined });
    revalidatePath(`/dataset/proposals/${proposalId}`);
    return ok(null, review);
  } catch (e) {
    return failure(e);
  }
});
