/** The evaluations reviewers' re-runs replaced: kept, listed with what each reached. */
import { utcWhen } from "@/core/format";
import type { EarlierAttemptView } from "@/lib/submissions/view";

export function SubmissionEarlierAttempts({ attempts }: { attempts: EarlierAttemptView[] }) {
  if (attempts.length === 0) return null;
  return (
    <section aria-labelledby="earlier-attempts-heading">
      <h2 id="earlier-attempts-heading">Earlier attempts</h2>
      <p className="muted">Results a reviewer&apos;s re-run replaced: kept, but no longer this submission&apos;s scores.</p>
      <ul data-testid="earlier-attempts">
        {attempts.map((a) => (
          <li key={a.attempt}>
            Attempt {a.attempt}: {a.status}
            {a.finishedAt ? ` ${utcWhen(a.finishedAt)}` : ""}, {a.bugsResolved} of {a.bugsGraded} graded bug{a.bugsGraded === 1 ? "" : "s"} resolved; replaced {utcWhen(a.replacedAt)}
          </li>
        ))}
      </ul>
    </section>
  );
}
