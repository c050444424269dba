/**
 * The comparison's tables: the paired difference of A and B on the chains both
 * cover, who resolved more per chain, and every leaderboard row (the
 * scatter's text alternative). Counts link to the first failure behind them.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { EstimateText } from "@/components/leaderboard/EstimateText";
import { DataTable, type Column } from "@/components/ui/DataTable";
import { MODE_LABELS, formatCost, formatInterval, formatPercent } from "@/core/scoring/format";
import { flippedText, formatP, formatPoints, type ChainWinLoss } from "@/lib/compare/view";
import type { ComparePick, CompareView } from "@/lib/compare/data";
import { failurePageUrl, submissionPageUrl } from "@/lib/submissions/urls";
import { hrefWith } from "@/lib/view-query";
import { ChartModeKey } from "@/components/charts/ChartModeKey";

function PickName({ p, letter }: { p: ComparePick; letter: "A" | "B" }) {
  return (
    <>
      <b>{letter}</b> <Link href={submissionPageUrl(p.submissionId)}>{p.systemName}</Link> <ChartModeKey mode={p.mode} />{" "}
      <span className="muted">({p.teamName})</span>
      {p.visibility !== "public" && <span className={`badge ${p.visibility}`}>{p.visibility.replace("_", " ")}</span>}
    </>
  );
}

/** A row of the paired difference: each pick, then A − B. */
type DifferenceRow = { key: string; name: ReactNode; perBug: ReactNode; more: ReactNode; total?: boolean };

const DIFFERENCE_COLUMNS: Column<DifferenceRow>[] = [
  { header: "System", cell: (r) => r.name },
  { header: "Per-bug %", numeric: true, cell: (r) => r.perBug },
  { header: "Chains where it resolved more", numeric: true, cell: (r) => r.more },
];

export function CompareDifference({ view }: { view: CompareView }) {
  const { a, b, paired } = view;
  if (!a || !b || !paired) return null;
  return (
    <>
      <p className="difference" data-testid="paired-difference">
        A − B: <b>{formatPoints(paired.difference.value)}</b> points per bug <small className="muted">{formatInterval(paired.difference.ci)}</small>
      </p>
      <p className="muted">
        Per-bug % on the {paired.chains} chains ({paired.bugs} bugs) both cover, {paired.scoring} scoring; the interval is a 95% paired
        bootstrap over those chains ({paired.bootstrap.draws} draws, seed {paired.bootstrap.seed}).
        {paired.difference.ci[0] > 0 || paired.difference.ci[1] < 0 ? " The interval excludes 0." : " The interval includes 0: no clear difference."}{" "}
        <span data-testid="paired-p">
          Exact sign test over those chains ({paired.wins} won by A, {paired.losses} by B, ties dropped): p = {formatP(paired.sign_test_p)}.
        </span>
        {paired.per_bug_test && (
          <>
            {" "}
            <span data-testid="paired-bug-p">
              Exact McNemar test over their {paired.bugs} bugs ({paired.per_bug_test.a_only} resolved by A only, {paired.per_bug_test.b_only} by B only, the rest
              dropped): p = {formatP(paired.per_bug_test.mcnemar_p)}.
            </span>
          </>
        )}
      </p>
      <DataTable
        id="difference"
        caption="Paired difference (per-bug % on shared chains)"
        columns={DIFFERENCE_COLUMNS}
        rows={[
          { key: "a", name: <PickName p={a} letter="A" />, perBug: <Link href={submissionPageUrl(a.submissionId)}>{formatPercent(paired.a.per_bug)}</Link>, more: <a href="#chains">{paired.wins}</a> },
          { key: "b", name: <PickName p={b} letter="B" />, perBug: <Link href={submissionPageUrl(b.submissionId)}>{formatPercent(paired.b.per_bug)}</Link>, more: <a href="#chains">{paired.losses}</a> },
          {
            key: "difference",
            name: "A − B (points)",
            perBug: (
              <>
                {formatPoints(paired.difference.value)} <small className="muted">{formatInterval(paired.difference.ci)}</small>
              </>
            ),
            more: (
              <>
                <a href="#chains">{paired.ties}</a> <span className="muted">ties</span>
              </>
            ),
            total: true,
          },
        ]}
        rowKey={(r) => r.key}
        rowAttributes={(r): Record<string, string> => (r.total ? { className: "group-start" } : {})}
      />
    </>
  );
}

/** A chain's resolved count for one pick, linking to its first failure (or the submission when it has none). */
function CountLink({ count, of, submissionId, chain, firstUnresolved }: { count: number; of: number; submissionId: string; chain: string; firstUnresolved: number | null }) {
  const href = firstUnresolved === null ? submissionPageUrl(submissionId) : failurePageUrl(submissionId, chain, firstUnresolved);
  return (
    <>
      <Link href={href}>{count}</Link> <span className="share">/ {of}</span>
    </>
  );
}

export function CompareChainTable({ view }: { view: CompareView }) {
  const { a, b, paired } = view;
  if (!a || !b || !paired) return null;
  const label = (r: ChainWinLoss) => (r.winner === "a" ? "A" : r.winner === "b" ? "B" : "tie");
  const countColumn = (letter: "A" | "B", pick: ComparePick, side: "a" | "b"): Column<ChainWinLoss> => ({
    header: `${letter} resolved`,
    numeric: true,
    cellClass: (r) => (r.winner === side ? "winner" : ""),
    cell: (r) => <CountLink count={r[side]} of={r.length} submissionId={pick.submissionId} chain={r.continuousId} firstUnresolved={r.firstUnresolved[side]} />,
  });
  return (
    <DataTable
      id="chains-table"
      className="sticky-first"
      caption={`Per chain: bugs resolved (${paired.scoring}). A resolved more on ${paired.wins}, B on ${paired.losses}, tie on ${paired.ties}.`}
      columns={[
        { header: "Chain", cell: (r) => r.continuousId },
        countColumn("A", a, "a"),
        countColumn("B", b, "b"),
        { header: "More resolved by", cellClass: (r) => (r.winner === "tie" ? "muted" : `winner-${r.winner}`), cell: label },
        { header: "Flipped positions", cell: (r) => flippedText(r.flipped) || <span className="muted">none</span> },
      ]}
      rows={view.chains}
      rowKey={(r) => r.continuousId}
    />
  );
}

export function CompareSystemsTable({ view }: { view: CompareView }) {
  const picked = (id: string) => (id === view.a?.submissionId ? "A" : id === view.b?.submissionId ? "B" : "");
  const onFrontier = new Set(view.scatter.points.filter((p) => p.frontier).map((p) => p.submissionId));
  type Row = CompareView["rows"][number];
  const columns: Column<Row>[] = [
    {
      header: "System",
      cell: (r) => (
        <>
          <Link href={submissionPageUrl(r.submissionId)}>{r.system.name}</Link> <span className="muted">({r.team.name})</span>
        </>
      ),
    },
    { header: "Mode", cell: (r) => <ChartModeKey mode={r.mode} /> },
    { header: "Cost per chain", numeric: true, cell: (r) => formatCost(r.costPerChain) },
    { header: "Per-bug %", numeric: true, cell: (r) => <EstimateText estimate={r.perBug} /> },
    { header: "Pareto frontier", cell: (r) => (onFrontier.has(r.submissionId) ? <b>on it</b> : r.costPerChain === null ? "no cost" : "") },
    {
      header: "Compared",
      cell: (r) =>
        picked(r.submissionId) ? (
          <b>{picked(r.submissionId)}</b>
        ) : (
          <Link
            href={hrefWith("/compare", { version: view.version, a: view.a?.submissionId ?? r.submissionId, b: view.a ? r.submissionId : undefined, scoring: view.query.scoring, effort: view.query.effort })}
            aria-label={`${view.a ? "compare with A" : "pick as A"}: ${r.system.name}, ${MODE_LABELS[r.mode]}`}
          >
            {view.a ? "compare with A" : "pick as A"}
          </Link>
        ),
    },
  ];
  return (
    <DataTable
      id="systems-table"
      className="sticky-first"
      caption={`Every public system and mode: cost per chain, per-bug % (${view.query.scoring}) and the rows on the cost–score Pareto frontier`}
      columns={columns}
      rows={view.rows}
      rowKey={(r) => r.submissionId}
    />
  );
}
