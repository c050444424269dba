"use server";
import { formAction } from "@/lib/forms/action";
import { refresh } from "next/cache";
import { failure, formValues, ok, type ActionResult } from "@/lib/forms/result";
import { getViewer } from "@/lib/auth/viewer";
import { regradeAsSiteAdmin } from "@/lib/submissions/regrade";
import { changeSiteRole, siteRoleChangeSchema } from "@/lib/accounts/users";
import { releaseAsSiteAdmin } from "@/lib/dataset/release";

/** Grants or revokes a site role; changeSiteRole answers anyone but a site admin as not found. */
export const changeSiteRoleAction = formAction({}, async (_prev: ActionResult, form: FormData): Promise<ActionResult> => {
  try {
    const input = siteRoleChangeSchema.parse({ username: form.get("username"), role: form.get("role"), granted: form.get("granted") });
    await changeSiteRole(await getViewer(), input);
  } catch (e) {
    return failure(e);
  }
  refresh();
  return ok(null);
});

/** Re-grades one submission (its id in the form) or, with the field empty, every submission from the stored logs. */
export const regradeAction = formAction({}, async (_prev: ActionResult<string>, form: FormData): Promise<ActionResult<string>> => {
  let message: string;
  try {
    const raw = form.get("submission");
    const id = typeof raw === "string" && raw.trim() !== "" ? raw.trim() : null;
    const r = await regradeAsSiteAdmin(await getViewer(), id);
    message = `${r.submissions} submission(s) re-graded, ${r.changed} verdict(s) changed`;
  } catch (e) {
    return failure(e);
  }
  refresh();
  return ok(message);
});

/** Releases a new dataset version from the form (SPEC §8), as `chainswe dataset release` does. */
export const releaseVersionAction = formAction({}, async (_prev: ActionResult<string>, form: FormData): Promise<ActionResult<string>> => {
  const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : "");
  const values = formValues(form, ["version", "parent", "retire", "held_out", "notes"]);
  let message: string;
  try {
    const r = await releaseAsSiteAdmin(await getViewer(), { version: field("version"), parent: field("parent"), accepted: form.get("accepted") === "on", retire: field("retire"), held_out: field("held_out"), notes: field("notes") });
    message = `released ${r.version}: ${r.stats.chains} chains, ${r.stats.bugs} bugs; ${r.notes.map((n) => `${n.change} ${n.chain}`).join(", ") || "no change"}`;
  } catch (e) {
    return failure(e, values);
  }
  refresh();
  return ok(message);
});
