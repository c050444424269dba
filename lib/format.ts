/**
 * How the portal writes dates and counts: always UTC (a leaderboard is read
 * across time zones), the day or the minute, and counts with thousands
 * separators. One place, so every page says a date the same way.
 */

/** "2026-12-04" */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** "2026-12-04 09:52" */
export const utcMinute = (d: Date): string => d.toISOString().slice(0, 16).replace("T", " ");

/** "12,428" */
export const count = (n: number): string => n.toLocaleString("en");

/** "2026-12-04 09:52 UTC", or "—" for a time that has not come */
export const utcWhen = (d: Date | null): string => (d ? `${utcMinute(d)} UTC` : "—");
