"use client";
import { useActionState } from "react";
import { fieldError, IDLE, typed, type FormAction } from "@/lib/forms/result";

/** A new dataset version from a parent (SPEC §8): the fields of `chainswe dataset release`. */
export function AdminReleaseForm({ release, versions }: { release: FormAction<string>; versions: string[] }) {
  const [result, action, pending] = useActionState(release, IDLE);
  const problem = (name: string) => {
    const text = fieldError(result, name);
    return text ? (
      <span className="error" role="alert">
        {text}
      </span>
    ) : null;
  };
  return (
    <form action={action} aria-label="Release a version">
      <p className="field">
        <label htmlFor="release-version">New version</label> <input id="release-version" name="version" type="text" required defaultValue={typed(result, "version")} /> {problem("version")}
      </p>
      <p className="field">
        <label htmlFor="release-parent">From</label>{" "}
        <select id="release-parent" name="parent" defaultValue={typed(result, "parent") ?? versions[0]}>
          {versions.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>{" "}
        {problem("parent")}
      </p>
      <p className="field">
        <label>
          <input name="accepted" type="checkbox" /> Add every chain proposed for it and accepted by a reviewer
        </label>
      </p>
      <p className="field">
        <label htmlFor="release-retire">Retire (chain ids)</label> <input id="release-retire" name="retire" type="text" defaultValue={typed(result, "retire")} /> {problem("retire")}
      </p>
      <p className="field">
        <label htmlFor="release-held-out">Hold out (chain ids)</label> <input id="release-held-out" name="held_out" type="text" defaultValue={typed(result, "held_out")} /> {problem("held_out")}
      </p>
      <p className="field">
        <label htmlFor="release-notes">Why (one line per chain: &lt;chain id&gt;: why)</label>
        <br />
        <textarea id="release-notes" name="notes" rows={3} cols={60} defaultValue={typed(result, "notes")} /> {problem("notes")}
      </p>
      <button type="submit" disabled={pending}>
        Release
      </button>
      {result.status === "ok" && <p role="status">{result.data}</p>}
      {problem("form")}
      {result.status === "error" && result.message && (
        <p className="error" role="alert">
          {result.message}
        </p>
      )}
    </form>
  );
}
