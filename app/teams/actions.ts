"use server";
import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { failure, formValues, ok, type ActionResult } from "@/components/AccountForm";
import { getViewer } from "@/lib/auth/viewer";
import { systemFormInput } from "@/lib/data/systems";
import { addMember, addMemberSchema, createSystem, createTeam, memberRoleSchema, removeMember, setMemberRole, updateSystem } from "@/lib/data/teams";

// Thin: read the form, call lib/data/teams.ts (which checks the viewer), answer with an ActionResult.
// `slug`, `systemId` and `userId` are bound on the page; the data layer re-checks them, so a forged value gains nothing.

const SYSTEM_FIELDS = ["name", "model", "scaffold", "contextConfig", "links", "openWeights", "openScaffold"];

export async function createTeamAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const values = formValues(form, ["name"]);
  let slug: string;
  try {
    slug = (await createTeam(await getViewer(), { name: values.name ?? "" })).slug;
  } catch (e) {
    return failure(e, values);
  }
  redirect(`/teams/${slug}`);
}

export async function createSystemAction(slug: string, _prev: ActionResult, form: FormData): Promise<ActionResult> {
  const input = systemFormInput(form);
  try {
    await createSystem(await getViewer(), slug, input);
  } catch (e) {
    return failure(e, formValues(form, SYSTEM_FIELDS));
  }
  refresh();
  return ok(null, `System "${input.name.trim()}" created.`);
}

export async function updateSystemAction(slug: string, systemId: string, _prev: ActionResult, form: FormData): Promise<ActionResult> {
  try {
    await updateSystem(await getViewer(), systemId, systemFormInput(form));
  } catch (e) {
    return failure(e, formValues(form, SYSTEM_FIELDS));
  }
  redirect(`/teams/${slug}`);
}

export async function addMemberAction(slug: string, _prev: ActionResult, form: FormData): Promise<ActionResult> {
  const values = formValues(form, ["username", "role"]);
  try {
    await addMember(await getViewer(), slug, addMemberSchema.parse({ username: values.username, role: values.role || undefined }));
  } catch (e) {
    return failure(e, values);
  }
  refresh();
  return ok(null, `${values.username?.trim()} added.`);
}

/** A member's row: change the role (intent "role") or remove the member (intent "remove"; leaving, for oneself). */
export async function memberAction(slug: string, userId: string, _prev: ActionResult, form: FormData): Promise<ActionResult> {
  const viewer = await getViewer();
  const removing = form.get("intent") === "remove";
  try {
    if (removing) await removeMember(viewer, slug, userId);
    else await setMemberRole(viewer, slug, userId, memberRoleSchema.parse({ role: form.get("role") }));
  } catch (e) {
    return failure(e);
  }
  if (removing && userId === viewer?.id) redirect("/teams");
  refresh();
  return ok(null);
}
