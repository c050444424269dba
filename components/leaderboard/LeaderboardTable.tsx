"use client";
/**
 * The leaderboard's table, built with @tanstack/react-table.
 * Rows arrive filtered, sorted and grouped by the server (lib/leaderboard/rows.ts),
 * so the table is complete before any JavaScript runs; react-table holds the
 * columns and the sort state (manual sorting: the URL owns the order), and each
 * sortable header is a link to the same view sorted by that column, so sorting
 * works without JavaScript, keeps the header in place and is undone by Back.
 * Also renders the paper's reported rows: same columns, no links, never sortable.
 */
import Link from "next/link";
import { useMemo } from "react";
import { FlexRender, createColumnHelper, rowSortingFeature, tableFeatures, useTable, type Header, type Row, type SortingState } from "@tanstack/react-table";
import { ChartModeKey } from "@/components/charts/ChartModeKey";
import { leaderboardHref, sortParam, type LeaderboardView, type Sort, type SortKey } from "@/lib/leaderboard/url";
import type { DisplayGroup, DisplayRow, RateCell } from "@/lib/leaderboard/view";

type ColumnMeta = { numeric?: boolean; rowHeader?: boolean; title?: string; className?: string };
const features = tableFeatures({ rowSortingFeature, columnMeta: {} as ColumnMeta });
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
  helper.accessor("model", {
    header: "Model",
    meta: { rowHeader: true, title: "The system's model; below it, the system (a link to its submission) and its team" },
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
  helper.accessor("scaffold", { header: "Scaffold", enableSorting: false, meta: { className: "lb-wrap" } }),
  helper.accessor("config", { id: "config", header: "Configuration", meta: { title: "Context configuration (e.g. Baseline, Summarize, Sub-Agent)" } }),
  helper.accessor("mode", { header: "Mode", cell: ({ getValue }) => <ChartModeKey mode={getValue()} /> }),
  helper.accessor((r) => r.perBug.value, {
    id: "per_bug",
    header: "Per-bug %",
    sortDescFirst: true,
    meta: { numeric: true, title: "Resolved bugs / all bugs, with the 95% bootstrap interval over chains and the change against the same system's Oracle; for repeated runs, the mean over them and their spread" },
    cell: ({ row: { original: r } }) => <Rate rate={r.perBug} href={r.href} />,
  }),
  helper.accessor((r) => r.tier?.label ?? "", {
    id: "tier",
    header: "Tier",
    enableSorting: false,
    meta: { numeric: true, title: "Rows of a mode in one tier are not told apart by an exact sign test over chains against the row above (Holm-corrected, 5%); hover a tier for its p-value and rank stability" },
    cell: ({ row: { original: r } }) => (r.tier ? <span className="lb-tier" title={r.tier.title}>{r.tier.label}</span> : <span className="muted">—</span>),
  }),
  helper.accessor((r) => r.chain.value, {
    id: "chain",
    header: "Chain %",
    sortDescFirst: true,
    meta: { numeric: true, title: "Chains with every bug resolved / all chains" },
    cell: ({ row: { original: r } }) => <Rate rate={r.chain} href={r.href} />,
  }),
  helper.accessor((r) => r.passK?.value ?? "", {
    id: "pass_k",
    header: "Chain pass^k",
    enableSorting: false,
    meta: { numeric: true, title: "For a row of k repeated runs: chains solved in every one of its runs / all chains, with its interval (chains resampled with all their runs)" },
    cell: ({ row: { original: r } }) => (r.passK ? <Rate rate={r.passK} href={null} /> : <span className="muted">—</span>),
  }),
  helper.accessor((r) => r.runs ?? 1, {
    id: "runs",
    header: "Runs",
    enableSorting: false,
    meta: { numeric: true, title: "Runs of the same system and mode averaged in this row; its rates are their means, with their spread (min–max) below" },
  }),
  helper.accessor("cost", { header: "Cost / chain", sortDescFirst: false, meta: { numeric: true, title: "Mean over chains of the summed per-bug cost (USD)" } }),
  helper.accessor("costPerSolved", {
    id: "cost_per_solved",
    header: "Cost / solved chain",
    enableSorting: false,
    meta: { numeric: true, title: "What one solved chain costs: cost per chain / chain solve rate (USD)" },
  }),
  helper.accessor("peakContext", {
    id: "peak_context",
    header: "Peak context",
    sortDescFirst: false,
    meta: { numeric: true, title: "Mean over chains of the largest per-bug peak context (tokens)" },
  }),
  helper.accessor("date", {
    header: "Date",
    sortDescFirst: true,
    meta: { title: "When the evaluation finished (UTC)" },
    cell: ({ getValue }) => {
      const d = getValue();
      return d ? <time dateTime={d}>{d}</time> : "—";
    },
  }),
  helper.accessor((r) => r.badges.map((b) => b.label).join(", "), {
    id: "badges",
    header: "Badges",
    enableSorting: false,
    meta: { className: "lb-badges" },
    cell: ({ row: { original: r } }) =>
      r.badges.map((b) => (
        <span key={b.key} className={`badge lb-${b.key}`} title={b.title}>
          {b.label}
        </span>
      )),
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
  reported?: boolean;
};

type Features = typeof features;

/** A column's header; a sortable one links to the same view sorted by it. */
function ColumnHeader({ header: h, query }: { header: Header<Features, DisplayRow, unknown>; query: LeaderboardView | null }) {
  const meta = h.column.columnDef.meta;
  const active = h.column.getIsSorted();
  const next = h.column.getNextSortingOrder();
  return (
    <th scope="col" className={meta?.numeric ? "num" : undefined} title={meta?.title} aria-sort={active ? ARIA_SORT[active] : undefined}>
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
          {row.getAllCells().map((cell) => {
            const meta = cell.column.columnDef.meta;
            return meta?.rowHeader ? (
              <th key={cell.id} scope="row">
                <FlexRender cell={cell} />
              </th>
            ) : (
              <td key={cell.id} className={[meta?.numeric && "num", meta?.className].filter(Boolean).join(" ") || undefined}>
                <FlexRender cell={cell} />
              </td>
            );
          })}
        </tr>
      ))}
    </tbody>
  );
}

export function LeaderboardTable({ id, caption, groups, query, sort, reported = false }: LeaderboardTableProps) {
  const data = useMemo(() => groups.flatMap((g) => g.rows), [groups]);
  const sorting = useMemo<SortingState>(() => (sort ? [{ id: sort.key, desc: sort.dir === "desc" }] : []), [sort]);
  const table = useTable({
    features,
    columns,
    data,
    getRowId: (r) => r.id,
    state: { sorting },
    manualSorting: true,
    enableSorting: query !== null,
    enableSortingRemoval: false,
    enableMultiSort: false,
  });
  const rows = table.getRowModel().rows;
  const width = table.getAllLeafColumns().length;
  // each group's slice of the sorted rows, in order
  const starts = groups.map((_, i) => groups.slice(0, i).reduce((n, g) => n + g.rows.length, 0));
  return (
    <div className="table-scroll">
      <table id={id} className={`leaderboard sticky-first${reported ? " reported" : ""}`}>
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
