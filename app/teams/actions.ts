"use server";
import { formAction } from "@/lib/forms/action";
import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { failure, formValues, ok, type ActionResult } from "@/lib/forms/result";
import { requestClientAddress } from "@/lib/auth/request-address";
import { getViewer } from "@/lib/auth/viewer";
import { systemFormInput } from "@/lib/teams/systems";
import { SYSTEM_FIELDS } from "@/lib/teams/system-fields";
import { answerInvitation, invitationAnswerSchema, inviteMember, inviteSchema } from "@/lib/teams/invitations";
import { createSystem, createTeam, memberRoleSchema, removeMember, setMemberRole, systemInputSchema, systemWarnings, updateSystem } from "@/lib/teams/data";
import { removeWebhook, rotateWebhookSecret, saveWebhook, sendTestDelivery, webhookIntentSchema } from "@/lib/notifications/webhooks";

type WebhookSecret = { secret: string | null };

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
  const warnings = systemWarnings(systemInputSchema.parse(input)).map((w) => ` Warning: ${w}.`);
  return ok(null, `System "${input.name.trim()}" created.${warnings.join("")}`);
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
    const address = await requestClientAddress();
    await inviteMember(await getViewer(), slug, inviteSchema.parse({ username: values.username, role: values.role || undefined }), new Date(), { address });
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

/** The webhook form: a new webhook's secret comes back this once. */
export const saveWebhookAction = formAction({ bound: 1 }, async (slug: string, _prev: ActionResult<WebhookSecret>, form: FormData): Promise<ActionResult<WebhookSecret>> => {
  const values = formValues(form, ["url"]);
  let saved: { secret: string | null };
  try {
    saved = await saveWebhook(await getViewer(), slug, { url: values.url ?? "" });
  } catch (e) {
    return failure(e, values);
  }
  refresh();
  return ok(saved, saved.secret ? "Webhook saved." : "Webhook URL changed; the secret stays the same.");
});

/** The webhook's buttons: send a test delivery (intent "test"), rotate the secret ("rotate", answered once) or remove it ("remove"). */
export const webhookAction = formAction({ bound: 1 }, async (slug: string, _prev: ActionResult<WebhookSecret>, form: FormData): Promise<ActionResult<WebhookSecret>> => {
  const viewer = await getViewer();
  let result: ActionResult<WebhookSecret>;
  try {
    const intent = webhookIntentSchema.parse(form.get("intent"));
    if (intent === "rotate") result = ok(await rotateWebhookSecret(viewer, slug), "New secret made: the old one no longer signs.");
    else if (intent === "remove") {
      await removeWebhook(viewer, slug);
      result = ok({ secret: null }, "Webhook removed.");
    } else {
      const sent = await sendTestDelivery(viewer, slug);
      result = ok({ secret: null }, sent.ok ? "Test delivery: delivered." : `Test delivery failed: ${sent.answer}. A test delivery is not retried.`);
    }
  } catch (e) {
    return failure(e);
  }
  refresh();
  return result;
});
