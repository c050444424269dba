/** The comparison's picks as a plain GET form (usable before any JavaScript; the URL holds the view). */
import type { CompareView } from "@/lib/compare/data";
import { SEQ_SCORING_HINT, ScoringChoice } from "@/components/ui/ViewControls";

export function CompareForm({ view }: { view: CompareView }) {
  const q = view.query;
  const select = (name: "a" | "b", label: string, value: string | undefined) => (
    <div className="field">
      {/* the label apart from the select, so its name is "System A" and not also the picked option */}
      <label htmlFor={`compare-${name}`}>{label}</label>
      <select id={`compare-${name}`} name={name} defaultValue={value ?? ""} required>
        <option value="">pick a system and mode…</option>
        {view.options.map((o) => (
          <option key={o.submissionId} value={o.submissionId}>
            {o.label}
            {o.visibility !== "public" ? ` (${o.visibility.replace("_", " ")})` : ""}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <form className="view-controls" method="get" action="/compare" aria-label="Compare two systems">
      {select("a", "System A", q.a)}
      {select("b", "System B", q.b)}
      <ScoringChoice scoring={q.scoring} />
      {view.version && <input type="hidden" name="version" value={view.version} />}
      <input type="hidden" name="effort" value={q.effort} />
      <button type="submit">Compare</button>
      <p className="hint muted">
        {SEQ_SCORING_HINT}
        {view.versions.length > 1 && ` Dataset ${view.version ?? "—"}; other versions: `}
        {view.versions
          .filter((v) => view.versions.length > 1 && v !== view.version)
          .map((v, i) => (
            <span key={v}>
              {i > 0 && ", "}
              <a href={`/compare?version=${encodeURIComponent(v)}`}>{v}</a>
            </span>
          ))}
      </p>
    </form>
  );
}
