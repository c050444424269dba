import { utcMinute } from "@/core/format";

/** A timestamp as the portal shows them: UTC to the minute, full ISO on hover. */
export function UtcTime({ date }: { date: Date | null }) {
  if (!date) return <span className="muted">never</span>;
  const iso = date.toISOString();
  return (
    <time dateTime={iso} title={iso} className="when">
      {utcMinute(date)}
    </time>
  );
}
