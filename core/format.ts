/**
 * How the portal writes dates and counts: always UTC (a leaderboard is read
 * across time zones), the day or the minute, counts with thousands
 * separators, and sizes. One place, so every page says a date the same way.
 */

/** "2026-12-04" */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** "2026-12-04 09:52" */
export const utcMinute = (d: Date): string => d.toISOString().slice(0, 16).replace("T", " ");

/** "12,428" */
export const count = (n: number): string => n.toLocaleString("en");

/** "2026-12-04 09:52 UTC", or "—" for a time that has not come */
export const utcWhen = (d: Date | null): string => (d ? `${utcMinute(d)} UTC` : "—");

/** A size in bytes for people: "12 bytes", "3.4 KB", "1.5 MB". */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
