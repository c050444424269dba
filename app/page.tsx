/**
 * The home page: what this portal is, and every public evaluated submission
 * with its headline scores (strict for Seq, as in the paper's Table 2). The
 * full leaderboard (grouping, filters, intervals per configuration, relative
 * change against Oracle) replaces this table.
 */
import Link from "next/link";
import { EstimateCell } from "@/components/EstimateCell";
import { listPublicResults } from "@/lib/data/public-results";
import { MODE_LABELS } from "@/evaluator/scoring";

export default async function HomePage() {
  const rows = await listPublicResults();
  return (
    <main>
      <h1>ChainSWE</h1>
      <p>
        Coding agents fix a chain of dependent bugs in one repository, one after another; the evaluator replays their
        patches in order in Docker and grades every bug. Seq scores are strict: a bug counts only if every earlier bug of
        its chain was resolved too. Intervals are 95% bootstrap intervals over chains.
      </p>
      <h2>Public results</h2>
      {rows.length === 0 ? (
        <p className="muted">No public evaluated submission yet: teams submit, and results appear here once a reviewer approves them.</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">System</th>
                <th scope="col">Team</th>
                <th scope="col">Configuration</th>
                <th scope="col">Mode</th>
                <th scope="col">Dataset</th>
                <th scope="col" className="num">Per-bug %</th>
                <th scope="col" className="num">Chain %</th>
                <th scope="col">Evaluated</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row">
                    <Link href={`/submissions/${r.id}`}>{r.system.name}</Link>
                    <div className="muted">{r.system.model}</div>
                  </th>
                  <td>{r.team}</td>
                  <td>{r.system.contextConfig}</td>
                  <td>
                    <span className={`mode mode-${r.mode}`}>{MODE_LABELS[r.mode]}</span>
                  </td>
                  <td>{r.datasetVersion}</td>
                  <EstimateCell estimate={r.scores?.headline.perBug} />
                  <EstimateCell estimate={r.scores?.headline.chain} />
                  <td>{r.finishedAt?.toISOString().slice(0, 10) ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  );
}
