/**
 * What a bug-date window keeps (SPEC §7: a page always says so), with a link
 * back to every chain. Nothing when no window is set.
 */
import Link from "next/link";
import type { WindowSummary } from "@/lib/leaderboard/window";
import { describeWindow } from "@/lib/window-text";

export function WindowNote({ window, clearHref }: { window: WindowSummary | null; clearHref: string }) {
  if (!window) return null;
  return (
    <p className="window-note" role="status" data-testid="window-note">
      {describeWindow(window)} <Link href={clearHref}>Every chain</Link>
    </p>
  );
}
