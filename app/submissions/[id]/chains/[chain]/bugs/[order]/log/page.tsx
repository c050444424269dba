/**
 * One graded bug's full test log as a page: numbered lines with anchors, so the
 * failure page's excerpts link to the exact line. Same readers as the raw log
 * (bugLog checks the viewer); everyone else gets the 404 page.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { LogView } from "@/components/submissions/LogView";
import { getViewer } from "@/lib/auth/viewer";
import { bugLog } from "@/lib/submissions/downloads";
import { NotFoundError } from "@/core/errors";
import { bugOrderParam, failurePageUrl, logDownloadUrl } from "@/lib/submissions/urls";

export const metadata: Metadata = { title: "Test log · ChainSWE" };

type Props = { params: Promise<{ id: string; chain: string; order: string }> };

export default async function BugLogPage({ params }: Props) {
  const { id, chain, order: orderText } = await params;
  const order = bugOrderParam(orderText);
  let log: Awaited<ReturnType<typeof bugLog>>;
  try {
    log = await bugLog(await getViewer(), id, chain, order);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  return (
    <main className="log-page">
      <p>
        <Link href={failurePageUrl(id, chain, order)}>← bug {order} of {chain}</Link>
      </p>
      <h1>
        Test log: bug {order} of <code>{chain}</code>
      </h1>
      <p className="muted">
        The test run&apos;s full output as the grader read it. Click a line number to link to it.{" "}
        <a href={logDownloadUrl(id, chain, order)} download={log.filename} data-testid="log-download">
          Download {log.filename}
        </a>
      </p>
      <LogView log={log.text} label={`Test log of bug ${order} of ${chain}`} />
    </main>
  );
}
