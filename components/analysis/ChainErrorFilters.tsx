/**
 * The chain-error page's filters as a GET form (usable before any
 * JavaScript; with it a choice applies at once, as on every view: ViewForm;
 * the URL holds the view): dataset version, Seq mode, and any number of
 * systems (none ticked = all).
 */
import Link from "next/link";
import { ViewForm } from "@/components/ui/ViewForm";
import { MODE_LABELS } from "@/core/scoring/format";
import type { ChainErrorView } from "@/lib/analysis/data";
import { BugWindowFields, DatasetVersionSelect } from "@/components/ui/ViewControls";

export function ChainErrorFilters({ view }: { view: ChainErrorView }) {
  const picked = new Set(view.query.system);
  const filtered = picked.size > 0 || !!view.query.mode;
  return (
    <ViewForm className="view-controls" action="/analysis" label="Chain-error filters">
      <DatasetVersionSelect version={view.version} versions={view.versions} />
      <label>
        Mode
        <select name="mode" defaultValue={view.query.mode ?? ""}>
          <option value="">Seq and Seq+Mem</option>
          <option value="seq">{MODE_LABELS.seq}</option>
          <option value="seq_mem">{MODE_LABELS.seq_mem}</option>
        </select>
      </label>
      <BugWindowFields from={view.query.bug_from} until={view.query.bug_until} idPrefix="ce" />
      {view.systems.length > 0 && (
        <fieldset className="systems">
          <legend>Systems (none ticked: all)</legend>
          {view.systems.map((s) => (
            <label key={s.id}>
              <input type="checkbox" name="system" value={s.id} defaultChecked={picked.has(s.id)} /> {s.name}
              <span className="muted">({s.team})</span>
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" className="secondary">
        Apply
      </button>
      {filtered && <Link href={view.version ? `/analysis?version=${encodeURIComponent(view.version)}` : "/analysis"}>Clear filters</Link>}
    </ViewForm>
  );
}
