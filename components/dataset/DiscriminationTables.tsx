/**
 * The figures of the chains that still discriminate (SPEC §4): a version's
 * chains, or one chain's bugs, each with its solve rate, point-biserial,
 * Rasch difficulty and flags. Server-rendered; the numbers come from
 * lib/dataset/discrimination.ts.
 */
import Link from "next/link";
import { DataTable, type Column } from "@/components/ui/DataTable";
import { MODE_LABELS } from "@/core/scoring/format";
import { discriminationFlags, type DiscriminationView } from "@/lib/dataset/discrimination";
import { chainHref } from "@/lib/dataset/url";

type Item = DiscriminationView["chains"][number] | DiscriminationView["bugs"][number];

function figureColumns<T extends Item>(topN: number): Column<T>[] {
  return [
    { header: "Solve rate %", numeric: true, cell: (r) => (100 * r.solve_rate).toFixed(1) },
    {
      header: "Point-biserial",
      label: <abbr title="correlation of the outcome with the rows' overall chain %; — when either has no variance">Point-biserial</abbr>,
      numeric: true,
      cell: (r) => (r.point_biserial === null ? "—" : r.point_biserial.toFixed(3)),
    },
    { header: "Difficulty", label: <abbr title="Rasch (1PL) difficulty, joint MAP with an N(0, 3²) prior; higher is harder">Difficulty</abbr>, numeric: true, cell: (r) => r.difficulty.toFixed(2) },
    { header: "Flags", cell: (r) => discriminationFlags(r, topN).join("; ") || "—" },
  ];
}

export function DiscriminationChainsTable({ view }: { view: DiscriminationView }) {
  const columns: Column<DiscriminationView["chains"][number]>[] = [
    { header: "Chain", cell: (c) => <Link href={chainHref(view.version, c.continuous_id)}>{c.continuous_id}</Link> },
    ...figureColumns<DiscriminationView["chains"][number]>(view.top_n),
  ];
  return (
    <DataTable
      id="discrimination"
      testId="discrimination-chains"
      caption={`Chains that still discriminate, ${view.scoring} scoring, ${MODE_LABELS[view.mode]} rows`}
      columns={columns}
      rows={view.chains}
      rowKey={(c) => c.continuous_id}
    />
  );
}

export function DiscriminationBugsTable({ view }: { view: DiscriminationView }) {
  const columns: Column<DiscriminationView["bugs"][number]>[] = [{ header: "Position", cell: (b) => <a href={`#bug-${b.order}`}>{b.order}</a> }, ...figureColumns<DiscriminationView["bugs"][number]>(view.top_n)];
  return <DataTable id="bug-discrimination" testId="discrimination-bugs" caption={`Bugs that still discriminate, ${view.scoring} scoring, ${MODE_LABELS[view.mode]} rows`} columns={columns} rows={view.bugs} rowKey={(b) => String(b.order)} />;
}
