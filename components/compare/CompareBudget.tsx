/**
 * The budget curves' controls and text alternative: which effort the cap is on
 * (links, so the choice is in the URL and works without JavaScript), and per
 * visible row its per-bug % and chain % at four caps, with the bugs left out
 * for having no effort recorded.
 */
import Link from "next/link";
import { EFFORT_KINDS, type EffortKind } from "@/core/scoring";
import { formatPercent } from "@/core/scoring/format";
import { DataTable, type Column } from "@/components/ui/DataTable";
import { ChartModeKey } from "@/components/charts/ChartModeKey";
import { EFFORT_LABELS, formatCap, tableCaps, valueAt, type BudgetSeries } from "@/lib/compare/budget";
import type { CompareView } from "@/lib/compare/data";
import { submissionPageUrl } from "@/lib/submissions/urls";
import { hrefWith } from "@/lib/view-query";

export function BudgetEffortChoice({ view }: { view: CompareView }) {
  const q = view.query;
  return (
    <nav aria-label="Effort the cap is on" className="effort-choice">
      <span>Cap on:</span>
      {EFFORT_KINDS.map((kind) => (
        <Link
          key={kind}
          href={hrefWith("/compare", { version: view.version, a: q.a, b: q.b, scoring: q.scoring, effort: kind }, "budget")}
          aria-current={kind === q.effort ? "true" : undefined}
        >
          {EFFORT_LABELS[kind]}
        </Link>
      ))}
    </nav>
  );
}

const rate = (s: BudgetSeries, cap: number) => `${formatPercent(valueAt(s.curve, cap, "per_bug"))} · ${formatPercent(valueAt(s.curve, cap, "chain"))}`;

export function CompareBudgetTable({ view }: { view: CompareView }) {
  const kind: EffortKind = view.query.effort;
  const caps = tableCaps(view.budget, kind);
  const columns: Column<BudgetSeries>[] = [
    {
      header: "System",
      cell: (s) => (
        <>
          <Link href={submissionPageUrl(s.submissionId)}>{s.system}</Link>
          {s.picked && <b> ({s.picked.toUpperCase()})</b>}
        </>
      ),
    },
    { header: "Mode", cell: (s) => <ChartModeKey mode={s.mode} /> },
    { header: "Bugs on the curve", numeric: true, cell: (s) => s.curve.bugs },
    { header: `No ${EFFORT_LABELS[kind]} recorded`, numeric: true, cell: (s) => s.curve.bugs_without_effort },
    ...caps.map((cap): Column<BudgetSeries> => ({ header: `≤ ${formatCap(kind, cap)}`, numeric: true, cell: (s) => rate(s, cap) })),
  ];
  return (
    <DataTable
      id="budget-table"
      className="sticky-first"
      caption={`Per-bug % · chain % (${view.query.scoring}) under a cap on ${EFFORT_LABELS[kind]} per bug, every public system and mode; bugs with no ${EFFORT_LABELS[kind]} recorded are left out`}
      columns={columns}
      rows={view.budget}
      rowKey={(s) => s.submissionId}
    />
  );
}
