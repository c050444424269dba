/**
 * Where a failure page sits: back to the submission, the previous and next bug,
 * and every bug of the chain with this submission's verdict (a mark and a word,
 * not colour alone).
 */
import Link from "next/link";
import type { FailurePage } from "@/lib/submissions/failure";
import { failurePageUrl, submissionPageUrl } from "@/lib/submissions/urls";

export function FailureNav({ page }: { page: FailurePage }) {
  const { submission, bug, chain } = page;
  const url = (order: number) => failurePageUrl(submission.id, bug.continuousId, order);
  const prev = bug.order > 1 ? bug.order - 1 : null;
  const next = bug.order < bug.chainLength ? bug.order + 1 : null;
  return (
    <nav className="failure-nav" aria-label="Bugs of this chain">
      <Link href={submissionPageUrl(submission.id)}>← Back to the submission</Link>
      <span className="pager">
        {prev ? <Link href={url(prev)}>← bug {prev}</Link> : <span className="muted">← first bug</span>}
        {next ? <Link href={url(next)}>bug {next} →</Link> : <span className="muted">last bug →</span>}
      </span>
      <ol className="chain-strip">
        {chain.map((b) => {
          const state = b.resolved === null ? "pending" : b.resolved ? "resolved" : "unresolved";
          const label = `bug ${b.order}: ${b.resolved === null ? "not graded" : state}`;
          return (
            <li key={b.order} className={`bug-state ${state}`}>
              {b.order === bug.order ? (
                <strong aria-current="page">{label}</strong>
              ) : (
                <Link href={url(b.order)}>{label}</Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
