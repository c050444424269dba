/**
 * Fields the views' GET forms share (the leaderboard, per position, chain
 * errors, comparison): the dataset version, and strict or lenient scoring with
 * what they mean.
 */
import type { Scoring } from "@/core/scoring/outcomes";

/** What strict and lenient mean for a Seq bug, under the forms that choose one. */
export const SEQ_SCORING_HINT = "Strict: a Seq bug counts only if every earlier bug of its chain was resolved too. Lenient: each bug on its own grade.";

export function DatasetVersionSelect({ version, versions }: { version: string | null; versions: readonly string[] }) {
  return (
    <label>
      Dataset version
      <select name="version" defaultValue={version ?? ""}>
        {versions.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ScoringChoice({ scoring, legend = "Seq scoring" }: { scoring: Scoring; legend?: string }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      <label>
        <input type="radio" name="scoring" value="strict" defaultChecked={scoring === "strict"} /> Strict
      </label>
      <label>
        <input type="radio" name="scoring" value="lenient" defaultChecked={scoring === "lenient"} /> Lenient
      </label>
    </fieldset>
  );
}

/**
 * The bug-date window (SPEC §7): only chains whose bugs are all dated inside
 * it count, e.g. those created after a model's training cutoff.
 */
export function BugWindowFields({ from, until, idPrefix = "bw" }: { from: string | undefined; until: string | undefined; idPrefix?: string }) {
  return (
    <fieldset className="bug-window">
      <legend>Bugs dated (contamination window)</legend>
      <label htmlFor={`${idPrefix}-bug_from`}>from</label>
      <input id={`${idPrefix}-bug_from`} type="date" name="bug_from" defaultValue={from ?? ""} />
      <label htmlFor={`${idPrefix}-bug_until`}>until</label>
      <input id={`${idPrefix}-bug_until`} type="date" name="bug_until" defaultValue={until ?? ""} />
    </fieldset>
  );
}
