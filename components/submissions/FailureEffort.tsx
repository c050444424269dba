/**
 * What the agent spent on one bug, as its prediction line reported it: tokens,
 * turns, wall time, cost, peak context. Where the bug's trajectory can be read,
 * its steps and tool calls are the counts shown (the same as the trajectory
 * section's), and the turns the prediction reported are named as such beside
 * them: the two are counted by different hands and need not agree.
 */
import { FactList } from "@/components/ui/FactList";
import { formatCost, formatTokens } from "@/core/scoring/format";
import type { FailurePage } from "@/lib/submissions/failure";

const figure = (v: number | undefined, show: (x: number) => string) => (v === undefined ? "not reported" : show(v));
const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

export function FailureEffort({ effort, trajectory }: { effort: FailurePage["effort"]; trajectory: FailurePage["trajectory"] }) {
  const traced = trajectory.state === "visible" ? trajectory : null;
  const reportedTurns = figure(effort?.turns, (n) => count(n, "turn"));
  return (
    <section aria-labelledby="effort-heading">
      <h2 id="effort-heading">Agent effort on this bug</h2>
      {effort || traced ? (
        <FactList
          facts={[
            ["Input tokens", figure(effort?.input_tokens, formatTokens)],
            ["Output tokens", figure(effort?.output_tokens, formatTokens)],
            ...(traced
              ? ([
                  ["Steps (its trajectory)", `${count(traced.steps, "step")} · ${count(traced.calls, "tool call")}`],
                  ["Turns (as the predictions report)", reportedTurns],
                ] as [string, string][])
              : ([["Turns (as the predictions report)", reportedTurns]] as [string, string][])),
            ["Wall time", figure(effort?.wall_seconds, (s) => `${s.toFixed(1)} s`)],
            ["Cost", figure(effort?.cost_usd, formatCost)],
            ["Peak context", figure(effort?.peak_context_tokens, (n) => `${formatTokens(n)} tokens`)],
          ]}
        />
      ) : (
        <p className="muted">The predictions have no line for this bug (an empty patch), so nothing was reported.</p>
      )}
    </section>
  );
}
