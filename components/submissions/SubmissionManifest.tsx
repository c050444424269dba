/**
 * The run manifest a submission was sent with: how its predictions were
 * produced (agent, model, limits, context, memory, what the agent could see),
 * the command to copy, and the dataset version's rules it broke.
 */
import { CopyButton } from "@/components/ui/CopyButton";
import { FactList } from "@/components/ui/FactList";
import type { SubmissionView } from "@/lib/submissions/view";

const yesNo = (b: boolean) => (b ? "yes" : "no");

export function SubmissionManifest({ manifest, breaches }: { manifest: SubmissionView["manifest"]; breaches: SubmissionView["ruleBreaches"] }) {
  return (
    <section className="submission-manifest" aria-labelledby="manifest-heading">
      <h2 id="manifest-heading">Run manifest</h2>
      {breaches.length > 0 && (
        <div className="errors" data-testid="rule-breaches">
          <p>Breaks this dataset version&apos;s rules (flagged on upload):</p>
          <ul>
            {breaches.map((b) => (
              <li key={b.rule}>
                <code>{b.field}</code>: {b.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {manifest ? (
        <>
          <FactList
            facts={[
              ["Agent", `${manifest.agent.name} ${manifest.agent.version}`],
              ["Model", manifest.model],
              ["Steps per bug", manifest.limits.steps_per_bug === null ? "no limit" : String(manifest.limits.steps_per_bug)],
              ["Time per bug", manifest.limits.time_per_bug_s === null ? "no limit" : `${manifest.limits.time_per_bug_s} s`],
              ["Time limit multiplier", `× ${manifest.limits.time_limit_multiplier}`],
              ["Context", manifest.context],
              ["Memory", manifest.memory],
              ["Hints visible", yesNo(manifest.visible.hints)],
              ["Test lists visible", yesNo(manifest.visible.test_lists)],
            ]}
          />
          <p>The command that produced the predictions:</p>
          <pre data-testid="manifest-command">{manifest.command}</pre>
          <CopyButton text={manifest.command} label="Copy command" />
        </>
      ) : (
        <p className="muted">No manifest was sent with this run.</p>
      )}
    </section>
  );
}
