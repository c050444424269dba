"use server";
import { formAction } from "@/lib/form-action";
import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { failure, formValues, ok, type ActionResult } from "@/lib/action-result";
import { getViewer } from "@/lib/auth/viewer";
import { systemFormInput } from "@/lib/teams/systems";
import { SYSTEM_FIELDS } from "@/lib/teams/system-fields";
import { answerInvitation, invitationAnswerSchema, inviteMember, inviteSchema } from "@/lib/teams/invitations";
import { createSystem, createTeam, memberRoleSchema, removeMember, setMemberRole, updateSystem } from "@/lib/teams/data";

// Thin: read the form, call lib/teams/data.ts (which checks the viewer), answer with an ActionResult.
// `slug`, `systemId` and `userId` are bound on the page; the data layer re-checks them, so a forged value gains nothing.


export const createTeamAction = formAction({}, async (_prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const values = formValues(form, ["name"]);
  let slug: string;
  try {
    slug = (await createTeam(await getViewer(), { name: values.name ?? "" })).slug;
  } catch (e) {
    return failure(e, values);
  }
  redirect(`/teams/${slug}`);
});

export const createSystemAction = formAction({ bound: 1 }, async (slug: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const input = systemFormInput(form);
  try {
    await createSystem(await getViewer(), slug, input);
  } catch (e) {
    return failure(e, formValues(form, SYSTEM_FIELDS));
  }
  refresh();
  return ok(null, `System "${input.name.trim()}" created.`);
});

export const updateSystemAction = formAction({ bound: 2 }, async (slug: string, systemId: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
  try {
    await updateSystem(await getViewer(), systemId, systemFormInput(form));
  } catch (e) {
    return failure(e, formValues(form, SYSTEM_FIELDS));
  }
  redirect(`/teams/${slug}`);
});

export const inviteMemberAction = formAction({ bound: 1 }, async (slug: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const values = formValues(form, ["username", "role"]);
  try {
    await inviteMember(await getViewer(), slug, inviteSchema.parse({ username: values.username, role: values.role || undefined }));
  } catch (e) {
    return failure(e, values);
  }
  refresh();
  return ok(null, `${values.username?.trim()} is invited: they join when they accept.`);
});

/** An invitation's buttons: its invitee accepts or declines (on /teams), a team admin withdraws it (on the team's page). */
export const invitationAction = formAction({ bound: 1 }, async (invitationId: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
  let joined: string | null = null;
  try {
    const answer = invitationAnswerSchema.parse(form.get("intent"));
    const { team } = await answerInvitation(await getViewer(), invitationId, answer);
    if (answer === "accept") joined = team.slug;
  } catch (e) {
    return failure(e);
  }
  if (joined) redirect(`/teams/${joined}`);
  refresh();
  return ok(null);
});

/** A member's row: change the role (intent "role") or remove the member (intent "remove"; leaving, for oneself). */
export const memberAction = formAction({ bound: 2 }, async (slug: string, userId: string, _prev: ActionResult, form: FormData): Promise<ActionResult> => {
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
});
