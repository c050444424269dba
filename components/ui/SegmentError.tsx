"use client";
import Link from "next/link";

/**
 * What a page shows when rendering it failed on the server (the database
 * down, a bug): what could not be shown, a retry, and the digest that names
 * the error in the site's log. The rest of the site (header, other pages)
 * keeps working; each segment's error.tsx passes its own `what`.
 */
export function SegmentError({ error, reset, what }: { error: Error & { digest?: string }; reset: () => void; what: string }) {
  return (
    <main>
      <h1>Something went wrong</h1>
      <div className="errors" role="alert">
        <p>
          {what} could not be shown. This is the site&apos;s fault, not yours: try again, or come back later.
        </p>
        {error.digest && (
          <p className="muted">
            Error reference <code>{error.digest}</code> (the site&apos;s log has the details under it).
          </p>
        )}
      </div>
      <p>
        <button type="button" onClick={reset}>
          Try again
        </button>{" "}
        <Link href="/">Leaderboard</Link>
      </p>
    </main>
  );
}
