"use client";
/**
 * A bug's trajectory as a timeline: the agent's steps, its own text and its
 * tool calls with their outputs folded, the calls the shortcut scan flagged
 * marked, and a search that keeps the items that match (and unfolds matching
 * outputs). Each call is an anchor (`#call-3`) the flags link to.
 */
import { useMemo, useState, type ReactNode } from "react";
import { SHORTCUT_LABELS, type ShortcutHit } from "@/core/trajectory/shortcuts";
import type { Timeline, TimelineItem, ToolCall } from "@/core/trajectory/timeline";
import { formatBytes } from "@/core/format";

/** Marks every case-insensitive occurrence of `query` in `text`. */
function highlighted(text: string, query: string): ReactNode {
  if (!query) return text;
  const lower = text.toLowerCase();
  const q = query.toLowerCase();
  const parts: ReactNode[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i !== -1; i = lower.indexOf(q, at)) {
    parts.push(text.slice(at, i), <mark key={i}>{text.slice(i, i + q.length)}</mark>);
    at = i + q.length;
  }
  parts.push(text.slice(at));
  return parts;
}

const matches = (item: TimelineItem, q: string): boolean =>
  item.kind === "text" ? item.text.toLowerCase().includes(q) : [item.command, item.stdout, item.stderr].some((t) => t.toLowerCase().includes(q));

const lineCount = (t: string) => (t === "" ? 0 : t.split("\n").length);

function Output({ label, text, query }: { label: string; text: string; query: string }) {
  if (text === "") return null;
  const open = query !== "" && text.toLowerCase().includes(query);
  return (
    // keyed by whether the search opened it, so a new search can fold or unfold it again
    <details className="traj-output" open={open} key={String(open)}>
      <summary>
        {label} · {lineCount(text)} line{lineCount(text) === 1 ? "" : "s"}, {formatBytes(new TextEncoder().encode(text).length)}
      </summary>
      <pre>{highlighted(text, query)}</pre>
    </details>
  );
}

function Call({ call, hits, query }: { call: ToolCall; hits: ShortcutHit[]; query: string }) {
  const failed = call.exitCode !== 0;
  return (
    <li id={`call-${call.index}`} className={`traj-call${hits.length ? " flagged" : ""}`} data-testid="traj-call">
      <div className="traj-call-head">
        <a href={`#call-${call.index}`} className="muted">
          call {call.index}
        </a>{" "}
        <span className={`badge ${failed ? "traj-failed" : "traj-ok"}`}>{call.exitCode === null ? "no exit (log ends)" : `exit ${call.exitCode}`}</span>
        {call.ms !== null && <span className="muted"> {call.ms < 1000 ? `${call.ms} ms` : `${(call.ms / 1000).toFixed(1)} s`}</span>}
        {hits.map((h) => (
          <span key={h.kind} className="badge traj-shortcut" title={h.why}>
            shortcut: {SHORTCUT_LABELS[h.kind]}
          </span>
        ))}
      </div>
      <pre className="traj-command">
        <span aria-hidden="true">$ </span>
        {highlighted(call.command, query)}
      </pre>
      <Output label="output" text={call.stdout} query={query} />
      <Output label="stderr" text={call.stderr} query={query} />
      {call.omittedBytes > 0 && <p className="muted">{formatBytes(call.omittedBytes)} of output were not logged (the harness keeps 64 KB per stream).</p>}
      {call.stdout === "" && call.stderr === "" && <p className="muted traj-quiet">no output</p>}
    </li>
  );
}

export function TrajectoryTimeline({ timeline, shortcuts }: { timeline: Timeline; shortcuts: ShortcutHit[] }) {
  const [search, setSearch] = useState("");
  const query = search.trim().toLowerCase();
  const hitsByCall = useMemo(() => {
    const m = new Map<number, ShortcutHit[]>();
    for (const h of shortcuts) m.set(h.call, [...(m.get(h.call) ?? []), h]);
    return m;
  }, [shortcuts]);
  const steps = timeline.steps
    .map((s) => ({ ...s, items: query ? s.items.filter((i) => matches(i, query)) : s.items }))
    .filter((s) => !query || s.items.length > 0 || (s.title ?? "").toLowerCase().includes(query));
  const total = timeline.steps.reduce((n, s) => n + s.items.length, 0);
  const shown = steps.reduce((n, s) => n + s.items.length, 0);
  return (
    <div className="traj-timeline">
      <p className="traj-search">
        <label>
          Search the trajectory{" "}
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="command, output or text on this page" aria-describedby="traj-search-count" />
        </label>{" "}
        <span id="traj-search-count" className="muted" role="status">
          {query ? `${shown} of ${total} items match` : `${total} items`}
        </span>
      </p>
      <ol className="traj-steps">
        {steps.map((s) => (
          <li key={s.index} className="traj-step" data-testid="traj-step">
            <h4>
              Step {s.index}
              {s.title !== null && <>: {highlighted(s.title, query)}</>}
            </h4>
            <ol className="traj-items">
              {s.items.map((item) =>
                item.kind === "text" ? (
                  <li key={`t${item.line}`} className="traj-text">
                    <pre>{highlighted(item.text, query)}</pre>
                  </li>
                ) : (
                  <Call key={`c${item.index}`} call={item} hits={hitsByCall.get(item.index) ?? []} query={query} />
                ),
              )}
            </ol>
          </li>
        ))}
      </ol>
    </div>
  );
}
