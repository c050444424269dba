/**
 * The per-position view's controls as a GET form (usable before any
 * JavaScript; with it a choice applies at once, as on every view: ViewForm;
 * the URL holds the view): dataset version, strict or lenient, and the
 * population of chains.
 */
import Link from "next/link";
import { ViewForm } from "@/components/ui/ViewForm";
import type { PositionsView } from "@/lib/positions/data";
import { BugWindowFields, DatasetVersionSelect, SEQ_SCORING_HINT, ScoringChoice } from "@/components/ui/ViewControls";

export function PositionFilters({ view }: { view: PositionsView }) {
  const q = view.query;
  return (
    <ViewForm className="view-controls" action="/positions" label="Per-position view">
      <DatasetVersionSelect version={view.version} versions={view.versions} />
      <ScoringChoice scoring={q.scoring} />
      <fieldset>
        <legend>Chains</legend>
        <label>
          <input type="radio" name="positions" value="length3" defaultChecked={q.positions === "length3"} /> Length-3 chains (as the paper)
        </label>
        <label>
          <input type="radio" name="positions" value="all" defaultChecked={q.positions === "all"} /> All chains
        </label>
      </fieldset>
      <BugWindowFields from={q.bug_from} until={q.bug_until} idPrefix="pos" />
      <label className="inline-check">
        <span>
          <input type="checkbox" name="paper" value="1" defaultChecked={q.paper} /> Also the paper&apos;s Tables 3–4 (reported, not re-evaluated)
        </span>
      </label>
      {q.config && <input type="hidden" name="config" value={q.config} />}
      {q.model && <input type="hidden" name="model" value={q.model} />}
      <button type="submit" className="secondary">
        Apply
      </button>
      {(q.config || q.model) && <Link href="/positions">Clear filters</Link>}
      <p className="hint muted">{SEQ_SCORING_HINT}</p>
    </ViewForm>
  );
}
