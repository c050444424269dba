"use client";
/**
 * The leaderboard's table, built with @tanstack/react-table.
 * Rows arrive filtered, sorted and grouped by the server (lib/leaderboard/rows.ts),
 * so the table is complete before any JavaScript runs; react-table holds the
 * columns, the sort state (manual sorting: the URL owns the order) and which
 * columns are shown (the URL's `cols`, lib/leaderboard/columns.ts), and each
 * sortable header is a link to the same view sorted by that column, so sorting
 * works without JavaScript, keeps the header in place and is undone by Back.
 * The rank column holds each row's place by per-bug %, "=1" where tied. On a
 * phone only the always-shown columns stay (app/globals.css, `lb-opt`).
 * Also renders the paper's reported rows: same columns, no links, never sortable or ranked.
 */
import Link from "next/link";
import { useMemo } from "react";
import { FlexRender, columnVisibilityFeature, createColumnHelper, rowSortingFeature, tableFeatures, useTable, type Header, type Row, type SortingState } from "@tanstack/react-table";
import { ChartModeKey } from "@/components/charts/ChartModeKey";
import { LeaderboardBadges } from "@/components/leaderboard/LeaderboardBadges";
import { leaderboardHref, sortParam, type LeaderboardView, type Sort, type SortKey } from "@/lib/leaderboard/url";
import type { DisplayGroup, DisplayRow, RateCell } from "@/lib/leaderboard/view";
import { ALWAYS_SHOWN, CHOOSABLE_COLUMNS, COLUMN_HELP, type ChoosableColumn } from "@/lib/leaderboard/columns";

type ColumnMeta = { numeric?: boolean; rowHeader?: boolean; title?: string; className?: string };
const features = tableFeatures({ rowSortingFeature, columnVisibilityFeature, columnMeta: {} as ColumnMeta });
const helper = createColumnHelper<typeof features, DisplayRow>();

function Rate({ rate, href }: { rate: RateCell; href: string | null }) {
  return (
    <>
      {href ? <Link href={href}>{rate.value}</Link> : rate.value}
      {rate.vsOracle && <span className="rel">{rate.vsOracle}</span>}
      {rate.ci && <small className="ci muted">{rate.ci}</small>}
      {rate.spread && <small className="lb-spread muted">{rate.spread}</small>}
    </>
  );
}

const columns = helper.columns([
  helper.accessor((r) => r.rank?.text ?? "", {
    id: "rank",
    header: "Rank",
    enableSorting: false,
    meta: { numeric: true, className: "lb-rank", title: COLUMN_HELP.rank },
    cell: ({ row: { original: r } }) => (r.rank ? <span title={r.rank.title}>{r.rank.text}</span> : "—"),
  }),
  helper.accessor("model", {
    header: "Model",
    meta: { rowHeader: true, title: COLUMN_HELP.model },
    cell: ({ row: { original: r } }) => (
      <>
        <span className="lb-model">{r.model}</span>
        <small className="lb-system">
          {r.href && r.system ? (
            <>
              <Link href={r.href}>{r.system}</Link>
              {r.team && <span className="muted"> · {r.team}</span>}
              {r.afterCutoff && (
                <>
                  {" · "}
                  <Link href={r.afterCutoff.href} className="lb-cutoff" title={`Only chains whose bugs are all dated after ${r.afterCutoff.day}, this model's training cutoff (or release)`}>
                    after its cutoff
                  </Link>
                </>
              )}
            </>
          ) : (
            <span className="muted">paper, Table 2</span>
          )}
        </small>
      </>
    ),
  }),
  helper.accessor("scaffold", { header: "Scaffold", enableSorting: false, meta: { className: "lb-wrap", title: COLUMN_HELP.scaffold } }),
  helper.accessor("config", { id: "config", header: "Configuration", meta: { title: COLUMN_HELP.config } }),
  helper.accessor("mode", { header: "Mode", meta: { title: COLUMN_HELP.mode }, cell: ({ getValue }) => <ChartModeKey mode={getValue()} /> }),
  helper.accessor((r) => r.perBug.value, {
    id: "per_bug",
    header: "Per-bug %",
    sortDescFirst: true,
    meta: { numeric: true, title: COLUMN_HELP.per_bug },
    cell: ({ row: { original: r } }) => <Rate rate={r.perBug} href={r.href} />,
  }),
  helper.accessor((r) => r.tier?.label ?? "", {
    id: "tier",
    header: "Tier",
    enableSorting: false,
    meta: { numeric: true, title: "Rows of a mode in one tier are not told apart from the tier's first row by an exact sign test over chains (Holm-corrected over the comparisons, 5%); hover a tier for its p-values and rank stability" },
    cell: ({ row: { original: r } }) => (r.tier ? <span className="lb-tier" title={r.tier.title}>{r.tier.label}</span> : <span className="muted">—</span>),
  }),
  helper.accessor((r) => r.chain.value, {
    id: "chain",
    header: "Chain %",
    sortDescFirst: true,
    meta: { numeric: true, title: COLUMN_HELP.chain },
    cell: ({ row: { original: r } }) => <Rate rate={r.chain} href={r.href} />,
  }),
  helper.accessor((r) => r.heldOut?.value ?? "", {
    id: "held_out",
    header: "Held-out chain %",
    enableSorting: false,
    meta: { numeric: true, title: COLUMN_HELP.held_out },
    cell: ({ row: { original: r } }) =>
      r.heldOut ? (
        <>
          {r.heldOut.value}
          <small className="ci muted">{r.heldOut.ci}</small>
          <small className={r.heldOut.flagged ? "lb-held-out-gap flagged" : "lb-held-out-gap muted"}>{r.heldOut.gap}</small>
        </>
      ) : (
        <span className="muted">—</span>
      ),
  }),
  helper.accessor((r) => r.passK?.value ?? "", {
    id: "pass_k",
    header: "Chain pass^k",
    enableSorting: false,
    meta: { numeric: true, title: COLUMN_HELP.pass_k },
    cell: ({ row: { original: r } }) => (r.passK ? <Rate rate={r.passK} href={null} /> : <span className="muted">—</span>),
  }),
  helper.accessor((r) => r.runs ?? 1, {
    id: "runs",
    header: "Runs",
    enableSorting: false,
    meta: { numeric: true, title: COLUMN_HELP.runs },
  }),
  helper.accessor("cost", { header: "Cost / chain", sortDescFirst: false, meta: { numeric: true, title: COLUMN_HELP.cost } }),
  helper.accessor("costPerSolved", {
    id: "cost_per_solved",
    header: "Cost / solved chain",
    enableSorting: false,
    meta: { numeric: true, title: COLUMN_HELP.cost_per_solved },
  }),
  helper.accessor("peakContext", {
    id: "peak_context",
    header: "Peak context",
    sortDescFirst: false,
    meta: { numeric: true, title: COLUMN_HELP.peak_context },
  }),
  helper.accessor("date", {
    header: "Date",
    sortDescFirst: true,
    meta: { title: COLUMN_HELP.date },
    cell: ({ getValue }) => {
      const d = getValue();
      return d ? <time dateTime={d}>{d}</time> : "—";
    },
  }),
  helper.accessor((r) => r.badges.map((b) => b.label).join(", "), {
    id: "badges",
    header: "Badges",
    enableSorting: false,
    meta: { className: "lb-badges", title: COLUMN_HELP.badges },
    cell: ({ row: { original: r } }) => <LeaderboardBadges badges={r.badges} />,
  }),
]);

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

export type LeaderboardTableProps = {
  id: string;
  caption: string;
  groups: DisplayGroup[];
  /** the view's state: sort links keep every other part of it; null for the reported rows, which are never sorted */
  query: LeaderboardView | null;
  sort: Sort | null;
  /** the chosen columns shown beside the always-shown ones */
  shown: readonly ChoosableColumn[];
  reported?: boolean;
};

/** The class of a column's cells: phones keep the always-shown columns only. */
const phoneClass = (id: string) => ((ALWAYS_SHOWN as readonly string[]).includes(id) ? undefined : "lb-opt");
const classes = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(" ") || undefined;

type Features = typeof features;

/** A column's header; a sortable one links to the same view sorted by it. */
function ColumnHeader({ header: h, query }: { header: Header<Features, DisplayRow, unknown>; query: LeaderboardView | null }) {
  const meta = h.column.columnDef.meta;
  const active = h.column.getIsSorted();
  const next = h.column.getNextSortingOrder();
  return (
    <th scope="col" className={classes(meta?.numeric && "num", h.column.id === "rank" && "lb-rank", phoneClass(h.column.id))} title={meta?.title} aria-sort={active ? ARIA_SORT[active] : undefined}>
      {query && h.column.getCanSort() && next ? (
        <Link
          className={`sort${active ? " active" : ""}`}
          href={leaderboardHref(query, { sort: sortParam({ key: h.column.id as SortKey, dir: next }) })}
          scroll={false}
        >
          <FlexRender header={h} />
          <span className="sort-mark" aria-hidden="true">
            {active === "asc" ? "▲" : active === "desc" ? "▼" : "↕"}
          </span>
        </Link>
      ) : (
        <FlexRender header={h} />
      )}
    </th>
  );
}

/** One group's rows (a configuration, or all), headed by its name when grouped. */
function GroupBody({ group, rows, width }: { group: DisplayGroup; rows: Row<Features, DisplayRow>[]; width: number }) {
  return (
    <tbody>
      {group.key !== null && (
        <tr className="lb-group">
          <th scope="rowgroup" colSpan={width}>
            {group.key}
          </th>
        </tr>
      )}
      {rows.map((row) => (
        <tr key={row.id}>
          {row.getVisibleCells().map((cell) => {
            const meta = cell.column.columnDef.meta;
            return meta?.rowHeader ? (
              <th key={cell.id} scope="row">
                <FlexRender cell={cell} />
              </th>
            ) : (
              <td key={cell.id} className={classes(meta?.numeric && "num", meta?.className, phoneClass(cell.column.id))}>
                <FlexRender cell={cell} />
              </td>
            );
          })}
        </tr>
      ))}
    </tbody>
  );
}

export function LeaderboardTable({ id, caption, groups, query, sort, shown, reported = false }: LeaderboardTableProps) {
  const data = useMemo(() => groups.flatMap((g) => g.rows), [groups]);
  const sorting = useMemo<SortingState>(() => (sort ? [{ id: sort.key, desc: sort.dir === "desc" }] : []), [sort]);
  const columnVisibility = useMemo(
    () => ({ ...Object.fromEntries(CHOOSABLE_COLUMNS.map((c) => [c, shown.includes(c)])), rank: !reported, tier: !reported }),
    [shown, reported],
  );
  const table = useTable({
    features,
    columns,
    data,
    getRowId: (r) => r.id,
    state: { sorting, columnVisibility },
    manualSorting: true,
    enableSorting: query !== null,
    enableSortingRemoval: false,
    enableMultiSort: false,
  });
  const rows = table.getRowModel().rows;
  const width = table.getVisibleLeafColumns().length;
  // each group's slice of the sorted rows, in order
  const starts = groups.map((_, i) => groups.slice(0, i).reduce((n, g) => n + g.rows.length, 0));
  return (
    <div className="table-scroll">
      <table id={id} className={`leaderboard${reported ? " reported" : " ranked"}`}>
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => (
                <ColumnHeader key={h.id} header={h} query={query} />
              ))}
            </tr>
          ))}
        </thead>
        {groups.map((g, i) => (
          <GroupBody key={g.key ?? "all"} group={g} rows={rows.slice(starts[i]!, starts[i]! + g.rows.length)} width={width} />
        ))}
      </table>
    </div>
  );
}
