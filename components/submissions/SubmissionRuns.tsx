/**
 * A submission's place among its entry's repeated runs (SPEC §7): which run it
 * is, links to the others the viewer may read, and for the team the way to
 * upload the next one. Nothing for a single run the team cannot add to.
 */
import Link from "next/link";
import type { SubmissionView } from "@/lib/submissions/view";
import { visibilityLabel } from "@/lib/submissions/visibility";

export function SubmissionRuns({ id, entry, canAdd }: { id: string; entry: SubmissionView["entry"]; canAdd: boolean }) {
  if (entry.runs.length <= 1 && !canAdd) return null;
  return (
    <section className="submission-runs" aria-labelledby="runs-heading">
      <h2 id="runs-heading">Runs</h2>
      {entry.runs.length > 1 ? (
        <p>
          Run {entry.run} of {entry.runs.length}:{" "}
          {entry.runs.map((r, i) => (
            <span key={r.id}>
              {i > 0 && " · "}
              {r.id === id ? (
                <strong aria-current="page">run {r.run}</strong>
              ) : (
                <Link href={`/submissions/${encodeURIComponent(r.id)}`}>run {r.run}</Link>
              )}{" "}
              <span className="muted">
                ({r.status}, {visibilityLabel(r.visibility).toLowerCase()})
              </span>
            </span>
          ))}
          . Its leaderboard row is the mean over the public runs, with their spread and chain pass^k.
        </p>
      ) : (
        <p className="muted">A single run. Repeated runs of the same system and mode show how stable a score is: the leaderboard averages them and reports chain pass^k.</p>
      )}
      {canAdd && (
        <p>
          <Link href={`/submit?run_of=${encodeURIComponent(id)}`}>Add a run</Link>{" "}
          <span className="muted">(same system, dataset version, mode and chains; each run is published and reviewed on its own)</span>
        </p>
      )}
    </section>
  );
}
