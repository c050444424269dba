/**
 * The header on every page ("quiet chrome"): the benchmark's name, the
 * newest dataset version and the date of the newest result, where to go
 * (with the signed-in viewer's unread notifications), and who is signed in.
 */
import Link from "next/link";
import type { Viewer } from "@/lib/accounts/users";
import { SignOutButton } from "@/components/accounts/SignOutButton";
import { utcDay } from "@/core/format";
import type { HeaderFacts } from "@/lib/site/header";


export function SiteHeader({ viewer, facts, unread }: { viewer: Viewer | null; facts: HeaderFacts; unread: number }) {
  const reviewer = viewer && (viewer.isReviewer || viewer.isSiteAdmin);
  return (
    <header className="site-header">
      <nav aria-label="Main">
        <span className="brand-block">
          <Link href="/" className="brand">
            ChainSWE
          </Link>
          <span className="meta">
            {facts.datasetVersion ? `newest dataset ${facts.datasetVersion}` : "no dataset yet"}
            {facts.newestResult ? ` · newest result ${utcDay(facts.newestResult)}` : ""}
          </span>
        </span>
        <Link href="/">Leaderboard</Link>
        <Link href="/positions">Positions</Link>
        <Link href="/analysis">Chain errors</Link>
        <Link href="/compare">Compare</Link>
        <Link href="/dataset">Dataset</Link>
        <Link href="/submissions">Submissions</Link>
        {viewer && <Link href="/submit">Submit</Link>}
        {viewer && <Link href="/teams">Teams</Link>}
        {viewer && (
          <Link href="/notifications" aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}>
            Notifications{unread > 0 && <> <span className="badge">{unread}</span></>}
          </Link>
        )}
        {reviewer && <Link href="/review">Review</Link>}
        {viewer?.isSiteAdmin && <Link href="/admin">Admin</Link>}
        <span className="spacer" />
        {viewer ? (
          <>
            <Link href="/account">{viewer.username ?? viewer.name ?? "Account"}</Link>
            <SignOutButton />
          </>
        ) : (
          <>
            <Link href="/signin">Sign in</Link>
            <Link href="/signup">Sign up</Link>
          </>
        )}
      </nav>
    </header>
  );
}
