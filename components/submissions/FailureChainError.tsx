/**
 * A chain error (SPEC §5): resolved under Oracle, unresolved under Seq, with
 * its cause and the evidence — which earlier bug's patch and which file —
 * each prior bug linking to its own failure page.
 */
import Link from "next/link";
import type { ChainErrorView } from "@/lib/submissions/failure";
import { CAUSE_LABELS, FINGERPRINT_LABELS } from "@/lib/submissions/failure-view";

export function FailureChainError({ error }: { error: ChainErrorView }) {
  return (
    <section className={`chain-error cause-${error.cause}`} aria-labelledby="chain-error-heading" data-testid="chain-error">
      <h2 id="chain-error-heading">Chain error</h2>
      <p>
        Resolved under Oracle, unresolved under Seq: the agent&apos;s own earlier work in this chain made it fail
        {error.fingerprint ? ` (${FINGERPRINT_LABELS[error.fingerprint]})` : ""}.
      </p>
      <p>
        <strong>
          Cause: <span data-testid="chain-error-cause">{error.cause}</span>
        </strong>{" "}
        — {CAUSE_LABELS[error.cause]}
      </p>
      {error.evidence.length > 0 && (
        <div className="table-scroll">
          <table data-testid="chain-error-evidence">
            <caption>Evidence</caption>
            <thead>
              <tr>
                <th scope="col">Earlier bug</th>
                <th scope="col">Kind</th>
                <th scope="col">File</th>
                <th scope="col">Strength</th>
              </tr>
            </thead>
            <tbody>
              {error.evidence.map((e) => (
                <tr key={`${e.priorOrder}-${e.kind}-${e.file}`}>
                  <th scope="row">
                    <Link href={e.pageUrl}>bug {e.priorOrder}</Link>
                  </th>
                  <td className={`file-mark file-${e.kind}`}>
                    <span aria-hidden="true">{e.kind === "overshoot" ? "▲" : "▽"}</span> {e.kind}
                  </td>
                  <td>
                    <code>{e.file}</code>
                  </td>
                  <td>{e.strong ? "strong" : "weak"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
