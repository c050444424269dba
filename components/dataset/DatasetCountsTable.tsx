/**
 * Chains and bugs per repository or per source (the paper's Tables 9 and 7): one
 * table markup for both, optionally linking the chain count to the filtered chains.
 */
import Link from "next/link";

export type CountRow = { name: string; chains: number; bugs: number; href?: string };

export function DatasetCountsTable({ caption, heading, rows }: { caption: string; heading: string; rows: CountRow[] }) {
  return (
    <div className="table-scroll">
      <table className="ds-sticky">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{heading}</th>
            <th scope="col" className="num">
              Chains
            </th>
            <th scope="col" className="num">
              Bugs
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <th scope="row">{r.name}</th>
              <td className="num">{r.href ? <Link href={r.href}>{r.chains}</Link> : r.chains}</td>
              <td className="num">{r.bugs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
