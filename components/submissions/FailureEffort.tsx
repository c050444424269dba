/** What the agent spent on one bug, as its prediction line reported it: tokens, steps, wall time, cost, peak context. */
import { FactList } from "@/components/ui/FactList";
import { formatCost, formatTokens } from "@/core/scoring/format";
import type { FailurePage } from "@/lib/submissions/failure";

const figure = (v: number | undefined, show: (x: number) => string) => (v === undefined ? "not reported" : show(v));

export function FailureEffort({ effort }: { effort: FailurePage["effort"] }) {
  return (
    <section aria-labelledby="effort-heading">
      <h2 id="effort-heading">Agent effort on this bug</h2>
      {effort ? (
        <FactList
          facts={[
            ["Input tokens", figure(effort.input_tokens, formatTokens)],
            ["Output tokens", figure(effort.output_tokens, formatTokens)],
            ["Steps", figure(effort.turns, String)],
            ["Wall time", figure(effort.wall_seconds, (s) => `${s.toFixed(1)} s`)],
            ["Cost", figure(effort.cost_usd, formatCost)],
            ["Peak context", figure(effort.peak_context_tokens, formatTokens)],
          ]}
        />
      ) : (
        <p className="muted">The predictions have no line for this bug (an empty patch), so nothing was reported.</p>
      )}
    </section>
  );
}
