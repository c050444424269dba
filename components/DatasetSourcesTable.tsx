/**
 * A dataset version's chains and bugs per originating benchmark (the paper's Table 7),
 * from the statistics stored at import (lib/dataset-stats.ts). Same markup as the
 * other dataset tables.
 */
import type { DatasetStats } from "@/lib/schemas/columns";

export function DatasetSourcesTable({ version, sources }: { version: string; sources: NonNullable<DatasetStats["by_source"]> }) {
  return (
    <div className="table-scroll">
      <table className="ds-sticky">
        <caption>Sources of {version} (“mixed”: a chain whose bugs come from several benchmarks)</caption>
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col" className="num">
              Chains
            </th>
            <th scope="col" className="num">
              Bugs
            </th>
          </tr>
        </thead>
        <tbody>
          {sources.map((s) => (
            <tr key={s.source}>
              <th scope="row">{s.source}</th>
              <td className="num">{s.chains}</td>
              <td className="num">{s.bugs}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
