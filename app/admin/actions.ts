"use server";
import { refresh } from "next/cache";
import { failure, ok, type ActionResult } from "@/components/AccountForm";
import { getViewer } from "@/lib/auth/viewer";
import { changeSiteRole, siteRoleChangeSchema } from "@/lib/data/users";

/** Grants or revokes a site role; changeSiteRole answers anyone but a site admin as not found. */
export async function changeSiteRoleAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  try {
    const input = siteRoleChangeSchema.parse({ username: form.get("username"), role: form.get("role"), granted: form.get("granted") });
    await changeSiteRole(await getViewer(), input);
  } catch (e) {
    return failure(e);
  }
  refresh();
  return ok(null);
}
