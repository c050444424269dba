import type { SubmissionRegrade } from "@/lib/submissions/regrade";
import { utcWhen } from "@/core/format";

const verdict = (v: { resolved: boolean; fingerprint: string | null; tampered: boolean }) =>
  (v.resolved ? "resolved" : `unresolved (${v.fingerprint})`) + (v.tampered ? ", tampered" : "");

/** What the latest re-grade from stored logs changed (SPEC §7): per bug, old and new verdict and each moved test. */
export function RegradeChanges({ regrade }: { regrade: SubmissionRegrade }) {
  return (
    <section aria-labelledby="regrade-heading">
      <h2 id="regrade-heading">Re-grade</h2>
      <p>
        Re-graded from the stored logs with grader {regrade.grader_version} on {utcWhen(new Date(regrade.at))}:{" "}
        {regrade.changed.length === 0 ? "no verdict changed" : `${regrade.changed.length} of ${regrade.bugs} verdicts changed`}
        {regrade.failures.length > 0 && `, ${regrade.failures.length} bug(s) could not be re-graded`}.
      </p>
      {regrade.changed.length > 0 && (
        <ul>
          {regrade.changed.map((c) => (
            <li key={`${c.continuous_id}-${c.order}`}>
              {c.continuous_id} bug {c.order}: {verdict(c.old)} → {verdict(c.new)}
              <ul>
                {c.tests.map((t) => (
                  <li key={`${t.list}-${t.id}`}>
                    <code>{t.id}</code> ({t.list}): {t.old} → {t.new}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
