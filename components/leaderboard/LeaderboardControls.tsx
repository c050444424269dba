"use client";
/**
 * The leaderboard's controls: dataset version, strict/lenient (with its one-line
 * explanation), filters, grouping and the paper's rows. A plain GET form, so it
 * works before JavaScript ("Apply"); with JavaScript a change navigates at
 * once to the view's canonical URL, as every view's form does (ViewForm.tsx),
 * so the URL always holds the state and Back returns to the previous view (the
 * fields are set to the URL's values in place, without re-mounting, so
 * keyboard focus stays where it was). On a phone all but the version and the
 * scoring fold behind "Filters", so the first screen shows the table.
 */
import Link from "next/link";
import { useEffect, useRef, type ReactNode } from "react";
import { MODE_LABELS } from "@/core/scoring/format";
import { leaderboardHref, leaderboardViewSchema, type LeaderboardView } from "@/lib/leaderboard/url";
import { SCORING_EXPLANATION } from "@/lib/leaderboard/view";
import { MODES } from "@/core/schemas/prediction";
import { parseViewQuery } from "@/lib/view-query";
import { BugWindowFields, ScoringChoice } from "@/components/ui/ViewControls";
import { useApplyOnChange } from "@/components/ui/ViewForm";

/** `shown`: the version the board shows (the default one when the query names none) */
type Props = { query: LeaderboardView; versions: string[]; shown: string | null; options: { configs: string[]; models: string[] } };

const openValue = (v: boolean | undefined) => (v === undefined ? "" : v ? "1" : "0");

/** What each field shows for a view (a checkbox: its value when checked, "" when not). */
function fieldValues(q: LeaderboardView, shown: string | null): Record<string, string> {
  return {
    version: q.version ?? shown ?? "",
    as_of: q.as_of ?? "",
    split: q.split,
    scoring: q.scoring,
    mode: q.mode ?? "",
    config: q.config ?? "",
    model: q.model ?? "",
    open_weights: openValue(q.open_weights),
    open_scaffold: openValue(q.open_scaffold),
    from: q.from ?? "",
    to: q.to ?? "",
    bug_from: q.bug_from ?? "",
    bug_until: q.bug_until ?? "",
    group: q.group === "config" ? "config" : "",
    test_edits: q.test_edits === "without" ? "without" : "",
    paper: q.paper ? "1" : "",
  };
}

/** A labelled select of the form; its options are the children. */
function FieldSelect({ name, label, value, children }: { name: string; label: string; value: string | undefined; children: ReactNode }) {
  return (
    <span className="lb-field">
      <label htmlFor={`lb-${name}`}>{label}</label>
      <select id={`lb-${name}`} name={name} defaultValue={value}>
        {children}
      </select>
    </span>
  );
}

function FieldDate({ name, label, value }: { name: string; label: string; value: string | undefined }) {
  return (
    <span className="lb-field">
      <label htmlFor={`lb-${name}`}>{label}</label>
      <input id={`lb-${name}`} type="date" name={name} defaultValue={value} />
    </span>
  );
}

const ANY = <option value="">any</option>;
const OPEN_CHOICES = (
  <>
    {ANY}
    <option value="1">open</option>
    <option value="0">closed</option>
  </>
);

/** The filters: mode, configuration, model, open flags and the finishing dates. */
function Filters({ values, options }: { values: Record<string, string>; options: Props["options"] }) {
  return (
    <>
      <FieldSelect name="mode" label="Mode" value={values.mode}>
        {ANY}
        {MODES.map((m) => (
          <option key={m} value={m}>
            {MODE_LABELS[m]}
          </option>
        ))}
      </FieldSelect>
      <FieldSelect name="config" label="Configuration" value={values.config}>
        {ANY}
        {options.configs.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </FieldSelect>
      <FieldSelect name="model" label="Model" value={values.model}>
        {ANY}
        {options.models.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </FieldSelect>
      <FieldSelect name="open_weights" label="Weights" value={values.open_weights}>
        {OPEN_CHOICES}
      </FieldSelect>
      <FieldSelect name="open_scaffold" label="Scaffold code" value={values.open_scaffold}>
        {OPEN_CHOICES}
      </FieldSelect>
      <FieldDate name="from" label="Finished from" value={values.from} />
      <FieldDate name="to" label="Finished until" value={values.to} />
    </>
  );
}

/** How many filters narrow the view, for the folded fields' summary. */
function activeFilters(q: LeaderboardView): number {
  return [q.mode, q.config, q.model, q.open_weights, q.open_scaffold, q.from, q.to, q.bug_from, q.bug_until].filter((v) => v !== undefined).length + (q.test_edits === "without" ? 1 : 0);
}

export function LeaderboardControls({ query, versions, shown, options }: Props) {
  const form = useRef<HTMLFormElement>(null);
  const href = leaderboardHref(query);
  const values = fieldValues(query, shown);
  // the fields follow the URL when it changed without them (Back, a link); set in place so keyboard focus stays
  useEffect(() => {
    for (const el of Array.from(form.current?.elements ?? [])) {
      if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement) || !(el.name in values)) continue;
      const want = values[el.name] ?? "";
      if (el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox")) el.checked = el.value === want;
      else el.value = want;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- href stands for `values` (a new object each render)
  }, [href]);
  const handlers = useApplyOnChange((f) => {
    const params = Object.fromEntries([...new FormData(f).entries()].map(([k, v]) => [k, String(v)]));
    return leaderboardHref(parseViewQuery(leaderboardViewSchema, params).query);
  });
  const active = activeFilters(query);
  return (
    <form method="get" action="/" className="view-controls lb-controls" ref={form} {...handlers} aria-label="Leaderboard view">
      <FieldSelect name="version" label="Dataset version" value={values.version}>
        {versions.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </FieldSelect>
      <FieldSelect name="split" label="Split" value={values.split}>
        <option value="full">whole version</option>
        <option value="mini">Mini split</option>
      </FieldSelect>
      <FieldDate name="as_of" label="Board as of" value={values.as_of} />
      <ScoringChoice scoring={query.scoring} legend="Scoring" />
      <details className="lb-more">
        <summary>Filters{active > 0 ? ` (${active} on)` : ""}</summary>
        <Filters values={values} options={options} />
        <BugWindowFields from={values.bug_from} until={values.bug_until} idPrefix="lb" />
        <fieldset>
          <legend>Show</legend>
          <label>
            <input type="checkbox" name="group" value="config" defaultChecked={values.group === "config"} /> grouped by configuration
          </label>
          <label>
            <input type="checkbox" name="paper" value="1" defaultChecked={values.paper === "1"} /> the paper&apos;s reported results
          </label>
          <label>
            <input type="checkbox" name="test_edits" value="without" defaultChecked={values.test_edits === "without"} /> scores without test-editing patches
            <span className="muted"> (a bug whose model patch edits test files counts as unresolved)</span>
          </label>
        </fieldset>
      </details>
      <input type="hidden" name="sort" value={query.sort} />
      {query.cols && <input type="hidden" name="cols" value={query.cols} />}
      {query.all && <input type="hidden" name="all" value="1" />}
      <span className="lb-actions">
        <button type="submit">Apply</button> <Link href="/">Reset</Link>
      </span>
      <p className="hint muted">{SCORING_EXPLANATION}</p>
    </form>
  );
}
