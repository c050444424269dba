"use client";
import { useActionState } from "react";
import { API_TOKEN_SCOPES } from "@/core/schemas/columns";
import { IDLE, fieldError, type ActionResult, type FormAction } from "@/lib/forms/result";
import { FormMessage, TextField } from "@/components/ui/form";
import { CopyButton } from "@/components/ui/CopyButton";

const SCOPE_HINTS: Record<(typeof API_TOKEN_SCOPES)[number], string> = {
  submit: "upload predictions for your teams",
  read: "read your teams' submissions and results",
};

/** Creates a token and shows it once, with the note that it cannot be shown again. */
export function AccountTokenForm({ create }: { create: FormAction<{ name: string; token: string }> }) {
  const [result, action, pending] = useActionState<ActionResult<{ name: string; token: string }>, FormData>(create, IDLE);
  const scopesError = fieldError(result, "scopes");
  return (
    <>
      {result.status === "ok" && (
        <div className="token-once" role="status">
          <p>
            New token <strong>{result.data.name}</strong>: copy it now, it will not be shown again.
          </p>
          <input readOnly aria-label="New API token" value={result.data.token} onFocus={(e) => e.currentTarget.select()} className="token-value" />{" "}
          <CopyButton text={result.data.token} label="Copy token" />
        </div>
      )}
      <form className="stack" action={action}>
        <FormMessage result={result} fields={["name", "scopes"]} />
        <TextField id="token-name" label="Token name" name="name" result={result} required maxLength={100} hint="e.g. the machine or CI job that uses it" />
        <fieldset className="checks" aria-describedby="token-scopes-error">
          <legend>Scopes</legend>
          {API_TOKEN_SCOPES.map((scope) => (
            <label key={scope}>
              <input type="checkbox" name="scopes" value={scope} defaultChecked /> {scope} <span className="muted">({SCOPE_HINTS[scope]})</span>
            </label>
          ))}
          <span className="error" id="token-scopes-error" aria-live="polite">
            {scopesError}
          </span>
        </fieldset>
        <div>
          <button type="submit" disabled={pending}>
            {pending ? "Creating…" : "Create token"}
          </button>
        </div>
      </form>
    </>
  );
}
