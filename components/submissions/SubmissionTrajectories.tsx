/**
 * A submission's trajectories (SPEC §7): how many bugs have one, who may read
 * them (the team's choice, which the team can change here), and the bugs the
 * shortcut scan flagged, each linked to its failure page.
 */
import Link from "next/link";
import { TrajectoriesChoice } from "@/components/submissions/SubmissionActions";
import type { FormAction } from "@/lib/forms/result";
import { SHORTCUT_LABELS } from "@/core/trajectory/shortcuts";
import type { SubmissionView } from "@/lib/submissions/view";

export function SubmissionTrajectories({ trajectories: t, choose }: { trajectories: SubmissionView["trajectories"]; choose: FormAction }) {
  return (
    <section aria-labelledby="trajectories-heading">
      <h2 id="trajectories-heading">Trajectories</h2>
      {t === null ? (
        <p className="muted">None were uploaded with this submission.</p>
      ) : (
        <>
          <p data-testid="trajectories-summary">
            {t.bugs} bug{t.bugs === 1 ? "" : "s"} with a trajectory, shown on each bug&apos;s page.{" "}
            {t.public ? "Public once the submission is published." : "Kept to the team and reviewers."}
            {!t.readable && " You can see the shortcut flags only."}
          </p>
          {t.canChoose && <TrajectoriesChoice choose={choose} shown={t.public} />}
          {t.flagged.length > 0 ? (
            <div className="errors" data-testid="shortcut-flags">
              <p>The shortcut scan flagged {t.flagged.length === 1 ? "one bug" : `${t.flagged.length} bugs`}:</p>
              <ul>
                {t.flagged.map((f) => (
                  <li key={`${f.continuousId}-${f.order}`}>
                    <Link href={f.url}>
                      {f.continuousId}, bug {f.order}
                    </Link>
                    : {f.kinds.map((k) => SHORTCUT_LABELS[k]).join(", ")}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="muted">The shortcut scan flagged nothing.</p>
          )}
        </>
      )}
    </section>
  );
}
