/**
 * Chains and bugs per repository or per source (the paper's Tables 9 and 7): one
 * table markup for both, optionally linking the chain count to the filtered chains.
 */
import Link from "next/link";
import { DataTable } from "@/components/ui/DataTable";

export type CountRow = { name: string; chains: number; bugs: number; href?: string };

export function DatasetCountsTable({ caption, heading, rows }: { caption: string; heading: string; rows: CountRow[] }) {
  return (
    <DataTable
      className="ds-sticky"
      caption={caption}
      columns={[
        { header: heading, cell: (r) => r.name },
        { header: "Chains", numeric: true, cell: (r) => (r.href ? <Link href={r.href}>{r.chains}</Link> : r.chains) },
        { header: "Bugs", numeric: true, cell: (r) => r.bugs },
      ]}
      rows={rows}
      rowKey={(r) => r.name}
    />
  );
}
