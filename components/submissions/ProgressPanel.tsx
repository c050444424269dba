"use client";
/**
 * Live progress of an evaluation: server-rendered from the same JSON the API
 * serves (so it reads right before any JavaScript runs), then, while the
 * evaluation is queued or running, refreshed from GET /api/v1/submissions/[id]
 * every 2 s. Once it ends the page re-renders on the server to show results.
 */
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { SubmissionJson } from "@/lib/submissions/view";
import { DataTable } from "@/components/ui/DataTable";

const POLL_MS = 2000;
const isOpen = (status: string) => status === "queued" || status === "running";

type Job = SubmissionJson["progress"]["jobs"][number];
type BugEntry = Job["bugStates"][number];

/** "resolved", "unresolved (broke_working_code)", "pending"; provisional ones say so. */
function bugText(b: BugEntry): string {
  const text = b.state === "unresolved" ? `unresolved (${b.fingerprint ?? "no fingerprint"})` : b.state;
  return b.provisional ? `${text}, provisional` : text;
}

function jobText(j: Job): string {
  if (j.status === "queued" && j.attempts > 0) return `queued (retry ${j.attempts + 1})`;
  return j.status;
}

export function ProgressPanel({ initial }: { initial: SubmissionJson }) {
  const [data, setData] = useState(initial);
  const [shown, setShown] = useState(initial);
  const router = useRouter();
  // a new server render (router.refresh) brings a new `initial`: it replaces what polling fetched
  if (shown !== initial) {
    setShown(initial);
    setData(initial);
  }
  const open = isOpen(data.status);

  useEffect(() => {
    if (!open) return;
    let stopped = false;
    const timer = setInterval(async () => {
      try {
        const res = await fetch(`/api/v1/submissions/${encodeURIComponent(initial.id)}`, { cache: "no-store" });
        if (!res.ok || stopped) return;
        const next = (await res.json()) as SubmissionJson;
        setData(next);
        // results, scores and buttons are server-rendered: fetch the page again once the run ends
        if (!isOpen(next.status)) router.refresh();
      } catch {
        // offline for a moment: the next tick tries again
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [open, initial.id, router]);

  const { chains, bugs, jobs } = data.progress;
  return (
    <section aria-labelledby="progress-heading" className="progress-panel">
      <h2 id="progress-heading">Progress</h2>
      <p>
        Status <strong data-testid="submission-status">{data.status}</strong> · chains done{" "}
        <span className="num" data-testid="chains-done">
          {`${chains.done}/${chains.total}`}
        </span>
        {chains.failed > 0 && <> · {chains.failed} failed</>}
        {chains.cancelled > 0 && <> · {chains.cancelled} cancelled</>} · bugs graded {bugs.graded}/{bugs.total}, resolved {bugs.resolved}
        {open && <span className="muted"> · updates every 2 s</span>}
      </p>
      <DataTable
        columns={[
          { header: "Chain", cell: (j) => j.continuousId },
          {
            header: "Status",
            cell: (j) => (
              <>
                {jobText(j)}
                {j.lastError && <div className="muted progress-error">{j.lastError.split("\n")[0]}</div>}
              </>
            ),
          },
          {
            header: "Bugs",
            cell: (j) => (
              <ol className="bug-states">
                {j.bugStates.map((b) => (
                  <li key={b.order} className={`bug-state ${b.state}${b.provisional ? " provisional" : ""}`} title={b.swebenchInstanceId}>
                    {b.order}: {bugText(b)}
                  </li>
                ))}
              </ol>
            ),
          },
        ]}
        rows={jobs}
        rowKey={(j) => j.continuousId}
        rowAttributes={(j) => ({ "data-testid": `chain-${j.continuousId}` })}
      />
    </section>
  );
}
