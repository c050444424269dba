/**
 * A chain error (SPEC §5): resolved under Oracle, unresolved under Seq, with
 * its cause and the evidence — which earlier bug's patch and which file —
 * each prior bug linking to its own failure page.
 */
import Link from "next/link";
import type { ChainErrorView } from "@/lib/submissions/failure";
import { CAUSE_LABELS, FINGERPRINT_LABELS } from "@/lib/submissions/failure-view";
import { DataTable } from "@/components/ui/DataTable";

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
        <DataTable
          testId="chain-error-evidence"
          caption="Evidence"
          columns={[
            { header: "Earlier bug", cell: (e) => <Link href={e.pageUrl}>bug {e.priorOrder}</Link> },
            {
              header: "Kind",
              cellClass: (e) => `file-mark file-${e.kind}`,
              cell: (e) => (
                <>
                  <span aria-hidden="true">{e.kind === "overshoot" ? "▲" : "▽"}</span> {e.kind}
                </>
              ),
            },
            { header: "File", cell: (e) => <code>{e.file}</code> },
            { header: "Strength", cell: (e) => (e.strong ? "strong" : "weak") },
          ]}
          rows={error.evidence}
          rowKey={(e) => `${e.priorOrder}-${e.kind}-${e.file}`}
        />
      )}
    </section>
  );
}
