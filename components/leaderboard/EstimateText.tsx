/** A rate and its 95% interval as every table shows them (`49.0 [44.9, 53.1]`, the interval smaller and muted). */
import type { Estimate } from "@/core/scoring";
import { formatInterval, formatPercent } from "@/core/scoring";

export function EstimateText({ estimate }: { estimate: Estimate | null | undefined }) {
  return (
    <>
      {formatPercent(estimate?.value)} <small className="muted">{formatInterval(estimate?.ci)}</small>
    </>
  );
}
