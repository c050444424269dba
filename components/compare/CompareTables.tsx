/**
 * The comparison's tables: the paired difference of A and B on the chains both
 * cover, who resolved more per chain, and every leaderboard row (the
 * scatter's text alternative). Counts link to the first failure behind them.
 */
import Link from "next/link";
import { EstimateCell } from "@/components/leaderboard/EstimateCell";
import { MODE_LABELS, formatCost, formatInterval, formatPercent } from "@/evaluator/scoring/format";
import { formatPoints, type ChainWinLoss } from "@/lib/compare/view";
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

/** A picked system's row: its per-bug % and the chains where it resolved more. */
function PickRow({ p, letter, perBug, more }: { p: ComparePick; letter: "A" | "B"; perBug: number; more: number }) {
  return (
    <tr>
      <th scope="row">
        <PickName p={p} letter={letter} />
      </th>
      <td className="num">
        <Link href={submissionPageUrl(p.submissionId)}>{formatPercent(perBug)}</Link>
      </td>
      <td className="num">
        <a href="#chains">{more}</a>
      </td>
    </tr>
  );
}

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
        {paired.difference.ci[0] > 0 || paired.difference.ci[1] < 0 ? " The interval excludes 0." : " The interval includes 0: no clear difference."}
      </p>
      <div className="table-scroll">
        <table id="difference">
          <caption>Paired difference (per-bug % on shared chains)</caption>
          <thead>
            <tr>
              <th scope="col">System</th>
              <th scope="col" className="num">
                Per-bug %
              </th>
              <th scope="col" className="num">
                Chains where it resolved more
              </th>
            </tr>
          </thead>
          <tbody>
            <PickRow p={a} letter="A" perBug={paired.a.per_bug} more={paired.wins} />
            <PickRow p={b} letter="B" perBug={paired.b.per_bug} more={paired.losses} />
            <tr className="group-start">
              <th scope="row">A − B (points)</th>
              <td className="num">
                {formatPoints(paired.difference.value)} <small className="muted">{formatInterval(paired.difference.ci)}</small>
              </td>
              <td className="num">
                <a href="#chains">{paired.ties}</a> <span className="muted">ties</span>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </>
  );
}

function CountCell({ count, of, submissionId, chain, firstUnresolved, win }: { count: number; of: number; submissionId: string; chain: string; firstUnresolved: number | null; win: boolean }) {
  const href = firstUnresolved === null ? submissionPageUrl(submissionId) : failurePageUrl(submissionId, chain, firstUnresolved);
  return (
    <td className={win ? "num winner" : "num"}>
      <Link href={href}>{count}</Link>{" "}
      <span className="share">/ {of}</span>
    </td>
  );
}

export function CompareChainTable({ view }: { view: CompareView }) {
  const { a, b, paired } = view;
  if (!a || !b || !paired) return null;
  const label = (r: ChainWinLoss) => (r.winner === "a" ? "A" : r.winner === "b" ? "B" : "tie");
  return (
    <div className="table-scroll">
      <table id="chains-table" className="sticky-first">
        <caption>
          Per chain: bugs resolved ({paired.scoring}). A resolved more on {paired.wins}, B on {paired.losses}, tie on {paired.ties}.
        </caption>
        <thead>
          <tr>
            <th scope="col">Chain</th>
            <th scope="col" className="num">
              A resolved
            </th>
            <th scope="col" className="num">
              B resolved
            </th>
            <th scope="col">More resolved by</th>
          </tr>
        </thead>
        <tbody>
          {view.chains.map((r) => (
            <tr key={r.continuousId}>
              <th scope="row">{r.continuousId}</th>
              <CountCell count={r.a} of={r.length} submissionId={a.submissionId} chain={r.continuousId} firstUnresolved={r.firstUnresolved.a} win={r.winner === "a"} />
              <CountCell count={r.b} of={r.length} submissionId={b.submissionId} chain={r.continuousId} firstUnresolved={r.firstUnresolved.b} win={r.winner === "b"} />
              <td className={r.winner === "tie" ? "muted" : `winner-${r.winner}`}>{label(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CompareSystemsTable({ view }: { view: CompareView }) {
  const picked = (id: string) => (id === view.a?.submissionId ? "A" : id === view.b?.submissionId ? "B" : "");
  return (
    <div className="table-scroll">
      <table id="systems-table" className="sticky-first">
        <caption>Every public system and mode: cost per chain and per-bug % ({view.query.scoring})</caption>
        <thead>
          <tr>
            <th scope="col">System</th>
            <th scope="col">Mode</th>
            <th scope="col" className="num">
              Cost per chain
            </th>
            <th scope="col" className="num">
              Per-bug %
            </th>
            <th scope="col">Compared</th>
          </tr>
        </thead>
        <tbody>
          {view.rows.map((r) => (
            <tr key={r.submissionId}>
              <th scope="row">
                <Link href={submissionPageUrl(r.submissionId)}>{r.system.name}</Link> <span className="muted">({r.team.name})</span>
              </th>
              <td>
                <ChartModeKey mode={r.mode} />
              </td>
              <td className="num">{formatCost(r.costPerChain)}</td>
              <EstimateCell estimate={r.perBug} />
              <td>
                {picked(r.submissionId) ? (
                  <b>{picked(r.submissionId)}</b>
                ) : (
                  <Link
                    href={hrefWith("/compare", { version: view.version, a: view.a?.submissionId ?? r.submissionId, b: view.a ? r.submissionId : undefined, scoring: view.query.scoring })}
                    aria-label={`${view.a ? "compare with A" : "pick as A"}: ${r.system.name}, ${MODE_LABELS[r.mode]}`}
                  >
                    {view.a ? "compare with A" : "pick as A"}
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
