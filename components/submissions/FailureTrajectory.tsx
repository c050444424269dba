/**
 * The failure page's trajectory section (SPEC §7 "Trajectories"): what the
 * earlier bugs carried into this bug's start state, the shortcut flags, and
 * the timeline when the viewer may read it.
 */
import Link from "next/link";
import { FactList } from "@/components/ui/FactList";
import { TrajectoryTimeline } from "@/components/submissions/TrajectoryTimeline";
import { SHORTCUT_LABELS } from "@/core/trajectory/shortcuts";
import type { CarriedPatch, TrajectoryView } from "@/lib/submissions/trajectory-view";

const CARRIED_TEXT: Record<CarriedPatch["carried"], string> = {
  applied: "its patch is in this start state",
  not_applied: "its patch did not apply: nothing of it is here",
  empty: "no patch: nothing carried",
  not_graded: "not graded yet",
};

function Carried({ carried }: { carried: CarriedPatch[] | null }) {
  if (carried === null) return <p className="muted">Oracle: this bug started from the gold state, so no earlier patch of the agent is in it.</p>;
  if (carried.length === 0) return <p className="muted">The first bug of the chain starts from the base commit: nothing is carried into it.</p>;
  return (
    <>
      <p>Started from the agent state: the earlier bugs&apos; patches that applied, with their test patches.</p>
      <ul data-testid="carried-patches">
        {carried.map((c) => (
          <li key={c.order}>
            <Link href={c.url}>
              Bug {c.order} (<code>{c.swebenchInstanceId}</code>)
            </Link>
            : {CARRIED_TEXT[c.carried]}
            {c.carried === "applied" && c.applyMethod && <span className="muted"> (applied with {c.applyMethod})</span>}
          </li>
        ))}
      </ul>
    </>
  );
}

function Trajectory({ view }: { view: TrajectoryView }) {
  if (view.state === "none") return <p className="muted">No trajectory was uploaded for this bug.</p>;
  if (view.state === "hidden") {
    return (
      <>
        <p className="muted" data-testid="trajectory-hidden">
          The team keeps its trajectories to itself and to reviewers{view.kinds.length ? "; the shortcut scan's flags are public" : ""}.
        </p>
        {view.kinds.length > 0 && (
          <p data-testid="shortcut-kinds">
            {view.kinds.map((k) => (
              <span key={k} className="badge traj-shortcut">
                shortcut: {SHORTCUT_LABELS[k]}
              </span>
            ))}
          </p>
        )}
      </>
    );
  }
  const o = view.outcome;
  return (
    <>
      <FactList
        facts={[
          ["Steps", String(view.steps)],
          ["Tool calls", String(view.calls)],
          ...(o
            ? ([
                ["Wall time", `${o.wall_seconds.toFixed(1)} s`],
                ["Ended", o.timed_out ? "stopped at the time limit" : o.exit_code === 0 ? "exit 0" : `exit ${o.exit_code ?? "unknown"}`],
                ["Patch from", o.patch_source === "patch_file" ? "the agent's patch file" : "the tree's diff"],
              ] as [string, string][])
            : []),
        ]}
      />
      {o && o.warnings.length > 0 && (
        <ul className="muted">
          {o.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {view.shortcuts.length > 0 && (
        <div className="errors" data-testid="shortcut-hits">
          <p>
            The shortcut scan flagged {view.shortcutHits === 1 ? "one call" : `${view.shortcutHits} hits`}
            {view.shortcutHits > view.shortcuts.length && ` (the first ${view.shortcuts.length} are listed, one of each kind among them)`}; a flag is for reviewers to judge, not a verdict:
          </p>
          <ul>
            {view.shortcuts.map((h) => (
              <li key={`${h.call}-${h.kind}`}>
                <a href={`?page=${h.page}#call-${h.call}`}>call {h.call}</a> {SHORTCUT_LABELS[h.kind]}: <code>{h.command}</code> <span className="muted">({h.why})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="muted">
        {view.pages > 1 && (
          <span data-testid="timeline-pages">
            Page {view.page} of {view.pages} ({view.items} items).{" "}
            {view.page > 1 && <a href={`?page=${view.page - 1}#trajectory-heading`}>previous</a>} {view.page < view.pages && <a href={`?page=${view.page + 1}#trajectory-heading`}>next</a>}{" "}
          </span>
        )}
        {view.cut && <span data-testid="timeline-cut">This page&apos;s part of the log is long: it is shown up to where the page stops reading. </span>}
        The log as uploaded: <a href={view.rawUrl}>raw</a> · <a href={`${view.rawUrl}?download=1`}>download</a>
      </p>
      <TrajectoryTimeline timeline={view.timeline} shortcuts={view.shortcuts.filter((h) => h.page === view.page)} />
    </>
  );
}

export function FailureTrajectory({ trajectory, carried }: { trajectory: TrajectoryView; carried: CarriedPatch[] | null }) {
  return (
    <section aria-labelledby="trajectory-heading">
      <h2 id="trajectory-heading">Trajectory</h2>
      <h3>Start state</h3>
      <Carried carried={carried} />
      <h3>What the agent did</h3>
      <Trajectory view={trajectory} />
    </section>
  );
}
