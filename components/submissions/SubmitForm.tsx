"use client";
/**
 * The upload form of /submit. Posts multipart/form-data with fetch to
 * POST /api/v1/submissions (same origin, session cookie) so the file streams
 * to the server, and shows what the API answers: every bad line as a list,
 * field errors beside their fields, size and quota refusals. On success it
 * opens the new submission's page.
 */
import { useRouter } from "next/navigation";
import { useId, useState, type FormEvent } from "react";
import { MODE_LABELS } from "@/core/scoring/format";
import type { SubmitFormOptions } from "@/lib/submissions/intake";

type Issue = { line: number; field: string; message: string };
type Answer = { error?: string; field?: string; issues?: Issue[]; url?: string };
type Problems = { top: string | null; issues: Issue[]; fields: Record<string, string> };

const NONE: Problems = { top: null, issues: [], fields: {} };

const mb = (bytes: number) => `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;

/**
 * The metadata object from the form: two named fields and free `key=value`
 * lines (values kept as text). A line without "=" is an error naming it.
 */
function metadataFromForm(scaffoldVersion: string, notes: string, extra: string): { metadata: Record<string, string> } | { error: string } {
  const metadata: Record<string, string> = {};
  const lines = extra.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) return { error: `line ${i + 1}: write key=value` };
    metadata[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  if (scaffoldVersion.trim()) metadata.scaffold_version = scaffoldVersion.trim();
  if (notes.trim()) metadata.notes = notes.trim();
  return { metadata };
}

/** Where the API's answer is shown: beside its field when it names one of ours, else above the form. */
function problemsFrom(status: number, body: Answer): Problems {
  const message = body.error ?? `the server answered ${status}`;
  if (status === 422 && body.issues?.length) return { top: message.replace(/^[^:]*: /, "The file has "), issues: body.issues, fields: {} };
  if (status === 401) return { ...NONE, top: "Your session has ended: sign in again, then submit." };
  if (status === 404) return { ...NONE, fields: { system: "This system is not one of your team's (or no longer exists)." } };
  const field = body.field === "trajectories" ? body.field : body.field === "predictions" || status === 413 ? "predictions" : body.field;
  if (field && FIELDS.includes(field)) return { ...NONE, fields: { [field]: message.replace(new RegExp(`^${field}: `), "") } };
  return { ...NONE, top: message };
}

const FIELDS = ["system", "dataset_version", "mode", "split", "metadata", "predictions", "run_of", "manifest", "trajectories"];

function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <span id={id} className="error">
      {text}
    </span>
  ) : null;
}

export function SubmitForm({ options }: { options: SubmitFormOptions }) {
  const router = useRouter();
  const uid = useId();
  // adding a run to an entry fixes its system, version and mode
  const entry = options.runOf;
  const [version, setVersion] = useState(entry?.version ?? options.defaultVersion ?? "");
  const modes = options.versions.find((v) => v.version === version)?.modes ?? [];
  const miniSize = options.versions.find((v) => v.version === version)?.mini ?? null;
  const [mode, setMode] = useState<string>(entry?.mode ?? (modes.includes("seq") ? "seq" : (modes[0] ?? "")));
  const [problems, setProblems] = useState<Problems>(NONE);
  const [busy, setBusy] = useState(false);
  const err = (f: string) => `${uid}-${f}-error`;
  const described = (f: string) => (problems.fields[f] ? err(f) : undefined);

  function chooseVersion(v: string) {
    setVersion(v);
    const offered = options.versions.find((x) => x.version === v)?.modes ?? [];
    if (!offered.includes(mode as never)) setMode(offered[0] ?? "");
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("predictions");
    if (!(file instanceof File) || file.name === "") return setProblems({ ...NONE, fields: { predictions: "Choose a predictions file." } });
    if (file.size > options.maxUploadBytes) {
      return setProblems({ ...NONE, fields: { predictions: `The file is ${mb(file.size)}, over the ${mb(options.maxUploadBytes)} limit.` } });
    }
    const trajectories = form.get("trajectories");
    const withTrajectories = trajectories instanceof File && trajectories.name !== "";
    if (withTrajectories && file.size + trajectories.size > options.maxUploadBytes) {
      const over = `The predictions and the trajectories are ${mb(file.size + trajectories.size)} together, over the ${mb(options.maxUploadBytes)} limit.`;
      return setProblems({ ...NONE, fields: { trajectories: over } });
    }
    const meta = metadataFromForm(String(form.get("scaffold_version") ?? ""), String(form.get("notes") ?? ""), String(form.get("extra_metadata") ?? ""));
    if ("error" in meta) return setProblems({ ...NONE, fields: { metadata: meta.error } });
    const body = new FormData();
    body.append("system", entry?.systemId ?? String(form.get("system") ?? ""));
    if (entry) body.append("run_of", entry.id);
    body.append("dataset_version", version);
    body.append("mode", mode);
    if (form.get("split") === "mini") body.append("split", "mini");
    body.append("metadata", JSON.stringify(meta.metadata));
    const manifest = form.get("manifest");
    if (manifest instanceof File && manifest.name !== "") body.append("manifest", await manifest.text());
    if (withTrajectories) {
      body.append("trajectories_public", form.get("trajectories_public") === "on" ? "true" : "false");
      body.append("trajectories", trajectories, trajectories.name);
    }
    body.append("predictions", file, file.name); // last: the fields are read before the file streams
    setBusy(true);
    setProblems(NONE);
    try {
      const res = await fetch("/api/v1/submissions", { method: "POST", body, credentials: "same-origin" });
      const answer = (await res.json().catch(() => ({}))) as Answer;
      if (res.status === 201 && answer.url) {
        router.push(answer.url);
        return; // stay busy while the page changes
      }
      setProblems(problemsFrom(res.status, answer));
    } catch (e) {
      setProblems({ ...NONE, top: `The upload failed: ${(e as Error).message}` });
    }
    setBusy(false);
  }

  return (
    <form className="stack submit-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
      {(problems.top || problems.issues.length > 0) && (
        <div className="errors" role="alert">
          {problems.top && <p>{problems.top}</p>}
          {problems.issues.length > 0 && (
            <ul className="issue-list">
              {problems.issues.map((i, n) => (
                <li key={n}>
                  line {i.line}
                  {i.field ? `, field ${i.field}` : ""}: {i.message}
                </li>
              ))}
            </ul>
          )}
          {problems.issues.length > 0 && <p className="muted">Nothing was stored; fix these lines and submit again.</p>}
        </div>
      )}
      {entry && (
        <div className="field" data-testid="submit-run-of">
          <p>
            This upload is <strong>run {entry.run}</strong> of the entry of submission <code>{entry.id}</code>: same system,
            dataset version and mode, over the same chains.
          </p>
          <FieldError id={err("run_of")} text={problems.fields.run_of} />
        </div>
      )}
      <div className="field">
        <label htmlFor="submit-system">System</label>
        <select id="submit-system" name="system" required disabled={entry !== null} aria-describedby={described("system")} defaultValue={entry?.systemId ?? options.systems[0]?.id}>
          {options.systems.map((s) => (
            <option key={s.id} value={s.id}>
              {s.teamName} / {s.name} ({s.model}, {s.contextConfig})
            </option>
          ))}
        </select>
        <FieldError id={err("system")} text={problems.fields.system} />
      </div>
      <div className="field">
        <label htmlFor="submit-version">Dataset version</label>
        <select id="submit-version" name="dataset_version" value={version} disabled={entry !== null} onChange={(e) => chooseVersion(e.target.value)} aria-describedby={described("dataset_version")}>
          {options.versions.map((v, i) => (
            <option key={v.version} value={v.version}>
              {v.version}
              {i === 0 ? " (newest)" : ""}
            </option>
          ))}
        </select>
        <FieldError id={err("dataset_version")} text={problems.fields.dataset_version} />
      </div>
      <div className="field">
        <label htmlFor="submit-mode">Mode</label>
        <select id="submit-mode" name="mode" value={mode} disabled={entry !== null} onChange={(e) => setMode(e.target.value)} aria-describedby={described("mode")}>
          {modes.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
        <FieldError id={err("mode")} text={problems.fields.mode} />
      </div>
      {miniSize !== null && entry === null && (
        <div className="field">
          <label htmlFor="submit-split">Split</label>
          <select id="submit-split" name="split" defaultValue="full" aria-describedby={described("split")}>
            <option value="full">the whole version</option>
            <option value="mini">its Mini split ({miniSize} chains, ranked on its own board)</option>
          </select>
          <FieldError id={err("split")} text={problems.fields.split} />
        </div>
      )}
      <div className="field">
        <label htmlFor="submit-file">Predictions file</label>
        <input id="submit-file" type="file" name="predictions" accept=".jsonl,.json,application/x-ndjson,application/json" required aria-describedby={described("predictions")} />
        <span className="muted">
          JSONL, one line per bug; at most {mb(options.maxUploadBytes)}, and {Math.round(options.maxPatchBytes / 1024)} KB per patch.
        </span>
        <FieldError id={err("predictions")} text={problems.fields.predictions} />
      </div>
      <div className="field">
        <label htmlFor="submit-manifest">Run manifest (optional)</label>
        <input id="submit-manifest" type="file" name="manifest" accept=".json,application/json" aria-describedby={described("manifest")} />
        <span className="muted">JSON: agent and version, model, step and time limits per bug, context, memory, whether hints or test lists were visible, the command (see the API guide). Checked against the dataset version&apos;s rules.</span>
        <FieldError id={err("manifest")} text={problems.fields.manifest} />
      </div>
      <div className="field">
        <label htmlFor="submit-trajectories">Trajectories (optional)</label>
        <input id="submit-trajectories" type="file" name="trajectories" accept=".tar,.tgz,.tar.gz,application/gzip,application/x-tar" aria-describedby={described("trajectories")} />
        <span className="muted">
          The directory <code>chainswe rollout</code> wrote, as .tar.gz (<code>tar czf t.tgz -C preds.trajectories .</code>); with the predictions at most {mb(options.maxUploadBytes)}, and {mb(options.maxTrajectoriesBytes)} unpacked.
          Each bug&apos;s page shows its timeline; they are scanned for shortcuts.
        </span>
        <label className="inline">
          <input type="checkbox" name="trajectories_public" /> Show the trajectories publicly once the results are published
        </label>
        <FieldError id={err("trajectories")} text={problems.fields.trajectories} />
      </div>
      <fieldset>
        <legend>About the run (optional, shown with the results)</legend>
        <label>
          Agent / scaffold version
          <input type="text" name="scaffold_version" maxLength={200} />
        </label>
        <label>
          Notes
          <textarea name="notes" rows={2} maxLength={2000} />
        </label>
        <label>
          More, one key=value per line
          <textarea name="extra_metadata" rows={3} placeholder={"temperature=0.2\nmax_turns=50"} aria-describedby={described("metadata")} />
          <FieldError id={err("metadata")} text={problems.fields.metadata} />
        </label>
      </fieldset>
      <div>
        <button type="submit" disabled={busy}>
          Submit
        </button>{" "}
        {busy && <span className="muted">Uploading and checking every line…</span>}
      </div>
    </form>
  );
}
