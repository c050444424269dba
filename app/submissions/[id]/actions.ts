"use server";
/**
 * The submission page's buttons. Each action reads the viewer itself (server
 * actions are public endpoints) and leaves the rules to lib/submissions/review.ts;
 * refusals come back as an ActionResult for the form to show beside its field.
 */
import { formAction } from "@/lib/forms/action";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/auth/viewer";
import { cancelSubmissionFor, changeVisibility, rerunSubmission, setTrajectoriesPublic } from "@/lib/submissions/review";
import { deleteSubmissionFor } from "@/lib/submissions/removal";
import { visibilityLabel } from "@/lib/submissions/visibility";
import { failure, ok, type ActionResult } from "@/lib/forms/result";

async function run(id: string, act: () => Promise<string>): Promise<ActionResult> {
  try {
    const message = await act();
    revalidatePath(`/submissions/${id}`);
    return ok(null, message);
  } catch (e) {
    return failure(e);
  }
}

/** Request publication, withdraw, approve or reject: the form's "action" and "reason" fields. */
export const visibilityAction = formAction({ bound: 1 }, async (id: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const viewer = await getViewer();
  const input = { action: form.get("action"), reason: form.get("reason") ?? undefined };
  return run(id, async () => `now ${visibilityLabel(await changeVisibility(viewer, id, input))}`);
});

export const cancelAction = formAction({ bound: 1 }, async (id: string, _prev: ActionResult): Promise<ActionResult> => {
  const viewer = await getViewer();
  return run(id, async () => `cancelled ${(await cancelSubmissionFor(viewer, id)).cancelledJobs} chain(s)`);
});

export const rerunAction = formAction({ bound: 1 }, async (id: string, _prev: ActionResult): Promise<ActionResult> => {
  const viewer = await getViewer();
  return run(id, async () => `re-queued ${(await rerunSubmission(viewer, id)).jobs} chain(s)`);
});

/** The team shows or hides its trajectories: the form's "shown" field ("true" or "false"). */
export const trajectoriesAction = formAction({ bound: 1 }, async (id: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const viewer = await getViewer();
  const shown = form.get("shown") === "true";
  return run(id, async () => ((await setTrajectoriesPublic(viewer, id, shown)) ? "trajectories public once the submission is" : "trajectories kept to the team and reviewers"));
});

/** The team deletes its private submission; on success the page is gone, so the team's submissions are shown. */
export const deleteAction = formAction({ bound: 1 }, async (id: string, _prev: ActionResult): Promise<ActionResult> => {
  const viewer = await getViewer();
  try {
    await deleteSubmissionFor(viewer, id);
  } catch (e) {
    return failure(e);
  }
  revalidatePath("/submissions");
  redirect("/submissions");
});
