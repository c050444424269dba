"use server";
import { refresh } from "next/cache";
import { failure, ok, type ActionResult } from "@/lib/forms/result";
import { getViewer } from "@/lib/auth/viewer";
import { formAction } from "@/lib/forms/action";
import { markAllNotificationsRead } from "@/lib/notifications/data";

export const markAllReadAction = formAction({}, async (_prev: ActionResult, _form: FormData): Promise<ActionResult> => {
  try {
    await markAllNotificationsRead(await getViewer());
  } catch (e) {
    return failure(e);
  }
  refresh();
  return ok(null);
});
