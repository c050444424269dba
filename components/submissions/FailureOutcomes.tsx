/**
 * The failure page's two columns (Oracle | Seq where the modes differ):
 * each submission's outcome on the bug — resolved, applied, fingerprint — and
 * its failing tests with the first lines of their error and the full log.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { MODE_LABELS } from "@/core/scoring/format";
import type { BugOutcomeView, FailingTest, FailureSide } from "@/lib/submissions/failure";
import { FINGERPRINT_LABELS } from "@/lib/submissions/failure-view";
import { visibilityLabel } from "@/lib/submissions/visibility";
import { DatasetModeTag } from "@/components/dataset/DatasetModeTag";
import { FactList } from "@/components/ui/FactList";

function FailingTestItem({ test, logPageUrl }: { test: FailingTest; logPageUrl: string | null }) {
  return (
    <li>
      <code className="test-id">{test.id}</code> <span className="muted">({test.list})</span>
      {test.excerpt ? (
        <>
          <pre className="log-excerpt" aria-label={`Error of ${test.id}`}>
            {test.excerpt.lines.join("\n")}
            {test.excerpt.more ? "\n…" : ""}
          </pre>
          <small className="muted">
            from{" "}
            {logPageUrl ? (
              // a plain link: a full page load is what lets the browser mark the line (:target); a client-side route change does not
              <a href={`${logPageUrl}#L${test.excerpt.line}`}>line {test.excerpt.line} of the full log</a>
            ) : (
              `line ${test.excerpt.line} of the full log`
            )}
          </small>
        </>
      ) : (
        <small className="muted"> (the log does not name it: see the full log)</small>
      )}
    </li>
  );
}

function OutcomeFacts({ o }: { o: BugOutcomeView }) {
  const facts: [string, ReactNode][] = [
    ["Outcome", <span key="o" className={`outcome ${o.resolved ? "resolved" : "unresolved"}`}>{o.resolved ? "resolved" : "unresolved"}</span>],
    ["Patch applied", o.patchApplied ? `yes (${o.applyMethod ?? "applied"})` : "no"],
    ["Fingerprint", o.fingerprint ? FINGERPRINT_LABELS[o.fingerprint] : "—"],
    ["FAIL_TO_PASS passing", `${o.passing.failToPass} of ${o.passing.failToPass + o.failing.filter((t) => t.list === "FAIL_TO_PASS").length}`],
    ["PASS_TO_PASS passing", `${o.passing.passToPass} of ${o.passing.passToPass + o.failing.filter((t) => t.list === "PASS_TO_PASS").length}`],
    ["Test run", `exit ${o.exitCode ?? "none"}${o.timedOut ? ", timed out" : ""}, ${o.durationS.toFixed(1)} s`],
  ];
  if (o.tampered) facts.push(["Tampered", "yes: a listed test's status was contradicted in the log"]);
  if (o.discardedFiles.length) facts.push(["Discarded edits to hidden tests", o.discardedFiles.join(", ")]);
  return (
    <FactList facts={facts} className="outcome-facts" />
  );
}

function SideColumn({ side, current }: { side: FailureSide; current: boolean }) {
  const o = side.outcome;
  return (
    <section className={`failure-side side-${side.mode}`} aria-labelledby={`side-${side.mode}-heading`} data-testid={`side-${side.mode}`}>
      <h3 id={`side-${side.mode}-heading`}>
        <DatasetModeTag mode={side.mode} />{" "}
        <span className="muted">· </span>
        {current ? <span className="muted">this submission</span> : <Link href={side.pageUrl}>its page for this bug</Link>}
      </h3>
      {side.visibility !== "public" && <p className="badge private">{visibilityLabel(side.visibility)}: only the team and reviewers see it</p>}
      {o === null ? (
        <p className="muted">Not graded{side.status === "completed" ? " (the chain's evaluation failed)" : ` yet (evaluation ${side.status})`}.</p>
      ) : (
        <>
          <OutcomeFacts o={o} />
          {o.failing.length > 0 && (
            <>
              <h4>Failing tests ({o.failing.length})</h4>
              <ul className="failing-test-list">
                {o.failing.map((t) => (
                  <FailingTestItem key={`${t.list}-${t.id}`} test={t} logPageUrl={side.log?.pageUrl ?? null} />
                ))}
              </ul>
            </>
          )}
          {side.log && (
            <p>
              <Link href={side.log.pageUrl} data-testid={`log-${side.mode}`}>
                Full test log ({MODE_LABELS[side.mode]})
              </Link>{" "}
              <span className="muted">·</span>{" "}
              <a href={side.log.downloadUrl} data-testid={`log-download-${side.mode}`}>
                download
              </a>
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** Oracle first, then Seq / Seq+Mem, whichever submission the page is for. */
export function FailureOutcomes({ sides, currentId }: { sides: FailureSide[]; currentId: string }) {
  const ordered = [...sides].sort((a, b) => (a.mode === "oracle" ? -1 : b.mode === "oracle" ? 1 : 0));
  return (
    <div className={`failure-sides count-${ordered.length}`}>
      {ordered.map((s) => (
        <SideColumn key={s.submissionId} side={s} current={s.submissionId === currentId} />
      ))}
    </div>
  );
}
