"use client";
/**
 * The form of /dataset/proposals/new. Posts multipart/form-data with fetch to
 * POST /api/v1/proposals (same origin, session cookie), as the submit form
 * does, and shows what the API answers: every bad record by line and field,
 * field errors beside their fields. On success it opens the proposal's page.
 */
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";

type Issue = { line: number; field: string; message: string; text?: string };
type Answer = { error?: string; field?: string; issues?: Issue[]; url?: string };

export function ProposeForm({ versions, maxUploadBytes }: { versions: string[]; maxUploadBytes: number }) {
  const router = useRouter();
  const uid = useId();
  const [problem, setProblem] = useState<{ top: string | null; issues: Issue[]; field: string | null }>({ top: null, issues: [], field: null });
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("chains");
    if (!(file instanceof File) || file.name === "") return setProblem({ top: "Choose a chains file.", issues: [], field: "chains" });
    if (file.size > maxUploadBytes) return setProblem({ top: `The file is over the ${Math.round(maxUploadBytes / 1048576)} MB limit.`, issues: [], field: "chains" });
    const body = new FormData();
    body.append("dataset_version", String(form.get("dataset_version") ?? ""));
    body.append("chains", file, file.name);
    setBusy(true);
    setProblem({ top: null, issues: [], field: null });
    try {
      const res = await fetch("/api/v1/proposals", { method: "POST", body, credentials: "same-origin" });
      const answer = (await res.json().catch(() => ({}))) as Answer;
      if (res.status === 201 && answer.url) return router.push(answer.url);
      const top = res.status === 401 ? "Your session has ended: sign in again, then propose." : (answer.error ?? `the server answered ${res.status}`);
      setProblem({ top, issues: answer.issues ?? [], field: answer.field ?? null });
    } catch (e) {
      setProblem({ top: `The upload failed: ${(e as Error).message}`, issues: [], field: null });
    }
    setBusy(false);
  }

  return (
    <form onSubmit={onSubmit} className="stack" aria-describedby={`${uid}-problems`}>
      <div className="field">
        <label htmlFor={`${uid}-version`}>Dataset version</label>
        <select id={`${uid}-version`} name="dataset_version" defaultValue={versions[0]}>
          {versions.map((v) => (
            <option key={v}>{v}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${uid}-chains`}>Chains file</label>
        <input id={`${uid}-chains`} type="file" name="chains" accept=".jsonl,.json,application/json" aria-invalid={problem.field === "chains" || undefined} />
        <small className="muted">Dataset records, JSON Lines or a JSON array: a file from chainswe mine or select as it is.</small>
      </div>
      <div id={`${uid}-problems`} role="alert" className={problem.top ? "errors" : undefined}>
        {problem.top && <p className="error">{problem.top}</p>}
        {problem.issues.length > 0 && (
          <ul>
            {problem.issues.map((i, n) => (
              <li key={n}>{i.text ?? `line ${i.line}${i.field ? `, ${i.field}` : ""}: ${i.message}`}</li>
            ))}
          </ul>
        )}
      </div>
      <div>
        <button type="submit" disabled={busy}>
          {busy ? "Checking…" : "Propose"}
        </button>
      </div>
    </form>
  );
}
