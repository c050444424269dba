"use client";
import { useActionState } from "react";
import { FormMessage, TextField } from "@/components/ui/form";
import { IDLE, type ActionResult } from "@/lib/forms/result";
import type { WebhookView } from "@/lib/notifications/webhooks";
import { CopyButton } from "@/components/ui/CopyButton";

type Secret = { secret: string | null };
type Action = (prev: ActionResult<Secret>, form: FormData) => Promise<ActionResult<Secret>>;

/** A secret that was just made, shown this once. */
function SecretOnce({ result }: { result: ActionResult<Secret> }) {
  if (result.status !== "ok" || !result.data.secret) return null;
  return (
    <div className="token-once" role="status">
      <p>Webhook secret: copy it now, it will not be shown again. Deliveries are signed with it (X-ChainSWE-Signature).</p>
      <input readOnly aria-label="Webhook secret" value={result.data.secret} onFocus={(e) => e.currentTarget.select()} className="token-value" />{" "}
      <CopyButton text={result.data.secret} label="Copy secret" />
    </div>
  );
}

/** Team admins set the URL notifications are POSTed to; the first save makes the secret. */
export function TeamWebhookForm({ action, webhook }: { action: Action; webhook: WebhookView | null }) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  return (
    <>
      <SecretOnce result={result} />
      <form className="stack" action={formAction}>
        <FormMessage result={result} fields={["url"]} />
        <TextField
          id="webhook-url"
          label="Webhook URL"
          name="url"
          type="url"
          result={result}
          required
          maxLength={2000}
          defaultValue={webhook?.url}
          key={webhook?.url}
          hint="http:// or https://; gets a signed JSON POST when an evaluation ends and when a reviewer decides (docs/API.md, Webhooks)"
        />
        <div>
          <button type="submit" disabled={pending}>
            {pending ? "Saving…" : webhook ? "Save URL" : "Add webhook"}
          </button>
        </div>
      </form>
    </>
  );
}

/** Send a test delivery, rotate the secret, remove the webhook. */
export function TeamWebhookButtons({ action }: { action: Action }) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  return (
    <>
      <SecretOnce result={result} />
      <form action={formAction} className="inline">
        <button type="submit" name="intent" value="test" disabled={pending}>
          {pending ? "Working…" : "Send test delivery"}
        </button>{" "}
        <button type="submit" name="intent" value="rotate" className="secondary" disabled={pending}>
          Rotate secret
        </button>{" "}
        <button type="submit" name="intent" value="remove" className="secondary" disabled={pending}>
          Remove webhook
        </button>
      </form>
      <FormMessage result={result} />
    </>
  );
}
