/** A rate and its 95% interval as every table shows them (UI.md: `49.0 [44.9, 53.1]`, the interval smaller and muted). */
import type { Estimate } from "@/evaluator/scoring";
import { formatInterval, formatPercent } from "@/evaluator/scoring";

export function EstimateCell({ estimate }: { estimate: Estimate | null | undefined }) {
  return (
    <td className="num">
      <EstimateText estimate={estimate} />
    </td>
  );
}

/** The same, inside a cell made elsewhere (a DataTable column). */
export function EstimateText({ estimate }: { estimate: Estimate | null | undefined }) {
  return (
    <>
      {formatPercent(estimate?.value)} <small className="muted">{formatInterval(estimate?.ci)}</small>
    </>
  );
}
