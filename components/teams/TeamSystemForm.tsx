"use client";
import Link from "next/link";
import { useActionState } from "react";
import type { SystemRow } from "@/lib/teams/systems";
import { SYSTEM_FIELDS } from "@/lib/teams/system-fields";
import { IDLE, fieldError, typed, type ActionResult } from "@/lib/forms/result";
import { Field, FormMessage, TextField, describedBy } from "@/components/ui/form";

type Props = {
  action: (prev: ActionResult, form: FormData) => Promise<ActionResult>;
  /** the system being edited; absent for a new one */
  system?: SystemRow;
  /** its links as one "Label URL" per line (lib/teams/systems.ts linksText) */
  linksText?: string;
  cancelHref?: string;
  suggestions: readonly string[];
};


/** The model's dates (SPEC §7's window starts after them), both optional. */
const DATE_FIELDS = [
  { name: "releaseDate", label: "Release date", hint: "optional; the day the model was made public" },
  {
    name: "trainingCutoff",
    label: "Training-data cutoff",
    hint: "optional; the leaderboard offers a view of only the bugs dated after it (after the release date when this is empty)",
  },
] as const;

/** Create or edit a system: what the leaderboard shows about it. */
export function TeamSystemForm({ action, system, linksText, cancelHref, suggestions }: Props) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  const p = system ? `system-${system.id}` : "system-new";
  const checked = (name: "openWeights" | "openScaffold") => (result.status === "error" ? result.values[name] === "on" : (system?.[name] ?? false));
  const linksError = fieldError(result, "links");
  return (
    <form className="stack" action={formAction} id="system-form">
      <FormMessage result={result} fields={SYSTEM_FIELDS} />
      <TextField id={`${p}-name`} label="System name" name="name" result={result} required maxLength={100} defaultValue={system?.name} />
      <TextField id={`${p}-model`} label="Model" name="model" result={result} required maxLength={200} defaultValue={system?.model} hint="e.g. claude-sonnet-4, gpt-5" />
      <TextField id={`${p}-scaffold`} label="Scaffold" name="scaffold" result={result} required maxLength={200} defaultValue={system?.scaffold} hint="the agent harness, e.g. SWE-agent, OpenHands" />
      <TextField
        id={`${p}-context`}
        label="Context configuration"
        name="contextConfig"
        result={result}
        required
        maxLength={100}
        list={`${p}-context-options`}
        defaultValue={system?.contextConfig ?? suggestions[0]}
        hint={`how the agent manages its context: ${suggestions.join(", ")}, or your own`}
      />
      <datalist id={`${p}-context-options`}>
        {suggestions.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      {DATE_FIELDS.map((f) => (
        <TextField key={f.name} id={`${p}-${f.name}`} label={f.label} name={f.name} type="date" result={result} defaultValue={system?.[f.name] ?? ""} hint={f.hint} />
      ))}
      <div className="checks">
        <label>
          <input type="checkbox" name="openWeights" defaultChecked={checked("openWeights")} key={`w-${checked("openWeights")}`} /> Open weights
        </label>
        <label>
          <input type="checkbox" name="openScaffold" defaultChecked={checked("openScaffold")} key={`s-${checked("openScaffold")}`} /> Open-source code
        </label>
      </div>
      <Field id={`${p}-links`} label="Links" error={linksError} hint="one per line: a label, a space, then the URL (paper, repository, model card)">
        <textarea
          id={`${p}-links`}
          name="links"
          rows={3}
          defaultValue={typed(result, "links") ?? linksText ?? ""}
          aria-invalid={linksError ? true : undefined}
          aria-describedby={describedBy(`${p}-links`, true)}
        />
      </Field>
      <div className="actions">
        <button type="submit" disabled={pending}>
          {pending ? "Saving…" : system ? "Save system" : "Create system"}
        </button>
        {cancelHref && <Link href={cancelHref}>Cancel</Link>}
      </div>
    </form>
  );
}
