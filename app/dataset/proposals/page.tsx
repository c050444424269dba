/**
 * /dataset/proposals: the viewer's chain proposals (every one for reviewers),
 * and the workers' queue with each kind of job's priority. Signed-in only.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import { getViewer } from "@/lib/auth/viewer";
import { listProposals } from "@/lib/proposals/data";
import { workerQueue } from "@/lib/site/queue-view";

export const metadata: Metadata = { title: "Chain proposals · ChainSWE" };
export const dynamic = "force-dynamic";

export default async function ProposalsPage() {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/dataset/proposals");
  const [proposals, queue] = await Promise.all([listProposals(viewer), workerQueue()]);
  return (
    <main>
      <h1>Chain proposals</h1>
      <p>
        Propose new chains for a dataset version: each is validated on the workers (its gold patches replayed in Oracle order, its tests
        run several times for flakiness), then a reviewer accepts or rejects it. <Link href="/dataset/proposals/new">Propose chains</Link>
      </p>
      {proposals.length === 0 ? (
        <p>No proposals yet.</p>
      ) : (
        <DataTable
          caption="Proposals, newest first"
          rows={proposals}
          rowKey={(p) => p.id}
          columns={[
            { header: "Proposal", cell: (p) => <Link href={`/dataset/proposals/${p.id}`}>{p.id}</Link> },
            { header: "Version", cell: (p) => p.datasetVersion },
            { header: "By", cell: (p) => p.proposedBy ?? "—" },
            { header: "When", cell: (p) => <UtcTime date={p.createdAt} /> },
            { header: "Chains", cell: (p) => p.chains, numeric: true },
            { header: "Validating", cell: (p) => p.validating, numeric: true },
            { header: "Valid", cell: (p) => p.valid, numeric: true },
            { header: "Refused", cell: (p) => p.refused, numeric: true },
            { header: "Accepted", cell: (p) => p.accepted, numeric: true },
            { header: "Rejected", cell: (p) => p.rejected, numeric: true },
          ]}
        />
      )}
      <h2>The workers&apos; queue</h2>
      <p className="muted">A free worker slot takes the job of the highest priority (1 first): a validation only when no evaluation waits, so an evaluation waits at most for the job a slot is running.</p>
      <DataTable
        caption="Jobs by kind"
        rows={queue}
        rowKey={(q) => q.kind}
        columns={[
          { header: "Kind", cell: (q) => q.label },
          { header: "Priority", cell: (q) => q.priority, numeric: true },
          { header: "Queued", cell: (q) => q.queued, numeric: true },
          { header: "Running", cell: (q) => q.running, numeric: true },
        ]}
      />
    </main>
  );
}
