"use client";
/**
 * The leaderboard's controls: dataset version, strict/lenient (with its one-line
 * explanation), filters, grouping and the paper's rows. A plain GET form, so it
 * works before JavaScript ("Apply"); with JavaScript every change navigates at
 * once to the view's canonical URL, so the URL always holds the state and Back
 * returns to the previous view (the fields are set to the URL's values in
 * place, without re-mounting, so keyboard focus stays where it was).
 */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { MODE_LABELS } from "@/evaluator/scoring/format";
import { SCORING_EXPLANATION, leaderboardHref, parseLeaderboardQuery, type LeaderboardView } from "@/lib/leaderboard-view";
import { MODES } from "@/lib/schemas/prediction";

type Props = { query: LeaderboardView; versions: string[]; options: { configs: string[]; models: string[] } };

const openValue = (v: boolean | undefined) => (v === undefined ? "" : v ? "1" : "0");

/** What each field shows for a view (a checkbox: its value when checked, "" when not). */
function fieldValues(q: LeaderboardView): Record<string, string> {
  return {
    version: q.version ?? "",
    scoring: q.scoring,
    mode: q.mode ?? "",
    config: q.config ?? "",
    model: q.model ?? "",
    open_weights: openValue(q.open_weights),
    open_scaffold: openValue(q.open_scaffold),
    from: q.from ?? "",
    to: q.to ?? "",
    group: q.group === "config" ? "config" : "",
    paper: q.paper ? "1" : "",
  };
}

export function LeaderboardControls({ query, versions, options }: Props) {
  const router = useRouter();
  const form = useRef<HTMLFormElement>(null);
  const href = leaderboardHref(query);
  const values = fieldValues(query);
  // the fields follow the URL when it changed without them (Back, a link); set in place so keyboard focus stays
  useEffect(() => {
    for (const el of Array.from(form.current?.elements ?? [])) {
      if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement) || !(el.name in values)) continue;
      const want = values[el.name] ?? "";
      if (el instanceof HTMLInputElement && (el.type === "radio" || el.type === "checkbox")) el.checked = el.value === want;
      else el.value = want;
    }
  }, [href]); // href stands for `values`
  const go = (f: HTMLFormElement) => {
    const params = Object.fromEntries([...new FormData(f).entries()].map(([k, v]) => [k, String(v)]));
    router.push(leaderboardHref(parseLeaderboardQuery(params).query), { scroll: false });
  };
  return (
    <form method="get" action="/" className="view-controls lb-controls" ref={form} onChange={(e) => go(e.currentTarget)} onSubmit={(e) => {
        e.preventDefault();
        go(e.currentTarget);
      }} aria-label="Leaderboard view">
      <span className="lb-field">
        <label htmlFor="lb-version">Dataset version</label>
        <select id="lb-version" name="version" defaultValue={values.version}>
          {versions.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </span>
      <fieldset>
        <legend>Scoring</legend>
        <label>
          <input type="radio" name="scoring" value="strict" defaultChecked={values.scoring === "strict"} /> Strict
        </label>
        <label>
          <input type="radio" name="scoring" value="lenient" defaultChecked={values.scoring === "lenient"} /> Lenient
        </label>
      </fieldset>
      <span className="lb-field">
        <label htmlFor="lb-mode">Mode</label>
        <select id="lb-mode" name="mode" defaultValue={values.mode}>
          <option value="">any</option>
          {MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </span>
      <span className="lb-field">
        <label htmlFor="lb-config">Configuration</label>
        <select id="lb-config" name="config" defaultValue={values.config}>
          <option value="">any</option>
          {options.configs.map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </span>
      <span className="lb-field">
        <label htmlFor="lb-model">Model</label>
        <select id="lb-model" name="model" defaultValue={values.model}>
          <option value="">any</option>
          {options.models.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </span>
      <span className="lb-field">
        <label htmlFor="lb-open_weights">Weights</label>
        <select id="lb-open_weights" name="open_weights" defaultValue={values.open_weights}>
          <option value="">any</option>
          <option value="1">open</option>
          <option value="0">closed</option>
        </select>
      </span>
      <span className="lb-field">
        <label htmlFor="lb-open_scaffold">Scaffold code</label>
        <select id="lb-open_scaffold" name="open_scaffold" defaultValue={values.open_scaffold}>
          <option value="">any</option>
          <option value="1">open</option>
          <option value="0">closed</option>
        </select>
      </span>
      <span className="lb-field">
        <label htmlFor="lb-from">Finished from</label>
        <input id="lb-from" type="date" name="from" defaultValue={values.from} />
      </span>
      <span className="lb-field">
        <label htmlFor="lb-to">Finished until</label>
        <input id="lb-to" type="date" name="to" defaultValue={values.to} />
      </span>
      <fieldset>
        <legend>Show</legend>
        <label>
          <input type="checkbox" name="group" value="config" defaultChecked={values.group === "config"} /> grouped by configuration
        </label>
        <label>
          <input type="checkbox" name="paper" value="1" defaultChecked={values.paper === "1"} /> the paper&apos;s reported results
        </label>
      </fieldset>
      <input type="hidden" name="sort" value={query.sort} />
      {query.all && <input type="hidden" name="all" value="1" />}
      <span className="lb-actions">
        <button type="submit">Apply</button> <Link href="/">Reset</Link>
      </span>
      <p className="hint muted">{SCORING_EXPLANATION}</p>
    </form>
  );
}
