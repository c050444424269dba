/**
 * A row's badges (lib/leaderboard/view.ts `rowBadges`): on the leaderboard and
 * in the review queue. A badge that says more opens on a tap or a key, not only
 * on a hover of its title.
 */
import type { Badge } from "@/lib/leaderboard/view";

export function LeaderboardBadges({ badges }: { badges: readonly Badge[] }) {
  return badges.map((b) =>
    b.title ? (
      <details key={b.key} className="lb-badge-more">
        <summary className={`badge lb-${b.key}`} title={b.title}>
          {b.label}
        </summary>
        <p className="lb-badge-text">{b.title}</p>
      </details>
    ) : (
      <span key={b.key} className={`badge lb-${b.key}`}>
        {b.label}
      </span>
    ),
  );
}
