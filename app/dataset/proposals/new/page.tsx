/**
 * /dataset/proposals/new: propose chains for a dataset version. Signed-in
 * only; the upload goes to POST /api/v1/proposals (components/proposals/ProposeForm.tsx).
 */
import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ProposeForm } from "@/components/proposals/ProposeForm";
import { getViewer } from "@/lib/auth/viewer";
import { listDatasetVersions } from "@/lib/dataset/data";
import { intakeLimitsFromEnv } from "@/lib/submissions/intake";

export const metadata: Metadata = { title: "Propose chains · ChainSWE" };
export const dynamic = "force-dynamic";

export default async function NewProposalPage() {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/dataset/proposals/new");
  const versions = (await listDatasetVersions()).map((v) => v.version);
  return (
    <main>
      <h1>Propose chains</h1>
      {versions.length === 0 ? (
        <p>No dataset version has been imported yet, so there is nothing to propose chains for.</p>
      ) : (
        <>
          <p className="muted">
            Every record is checked before anything is stored (problems listed by line and field); each chain&apos;s image must be on the
            workers&apos; engine or pullable, and its chain and instance ids new to the version. Then each chain is validated on the workers.
          </p>
          <noscript>
            <p className="errors">This form needs JavaScript. Without it, propose with <code>chainswe propose</code> or the HTTP API.</p>
          </noscript>
          <ProposeForm versions={versions} maxUploadBytes={intakeLimitsFromEnv().maxUploadBytes} />
        </>
      )}
    </main>
  );
}
