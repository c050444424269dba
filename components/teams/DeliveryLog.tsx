/** The team's latest deliveries (webhook and e-mail) and each attempt: when, the answer ("delivered" or a failure's category), how long, when the next is due. */
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import type { DeliveryRow } from "@/lib/notifications/webhooks";

type AttemptRow = DeliveryRow["attempts"][number] & { key: string; delivery: DeliveryRow; first: boolean; untried: boolean };

/** One table row per attempt (a delivery not yet tried has one row of its own), the delivery's facts on its first. */
function attemptRows(deliveries: DeliveryRow[]): AttemptRow[] {
  return deliveries.flatMap((d) => {
    const untried = d.attempts.length === 0;
    const tries = untried ? [{ at: d.createdAt, ok: false, answer: "", durationMs: 0, nextAttemptAt: null }] : d.attempts;
    return tries.map((a, i) => ({ ...a, key: `${d.id}-${i}`, delivery: d, first: i === 0, untried }));
  });
}

function Answer({ row }: { row: AttemptRow }) {
  if (row.untried) return <span className="muted">not tried yet</span>;
  return row.ok ? <>{row.answer}</> : <span className="error">{row.answer}</span>;
}

export function DeliveryLog({ deliveries }: { deliveries: DeliveryRow[] }) {
  return (
    <DataTable
      testId="delivery-log"
      caption="Deliveries, newest first, each attempt on its own line"
      captionHidden
      rowHeader={false}
      columns={[
        { header: "Delivery", cell: (r) => (r.first ? <code>{r.delivery.id}</code> : "") },
        { header: "Event", cell: (r) => (r.first ? r.delivery.event : "") },
        { header: "To", cell: (r) => (r.first ? (r.delivery.channel === "email" ? r.delivery.recipient : "webhook") : "") },
        { header: "Status", cell: (r) => (r.first ? r.delivery.status : "") },
        { header: "Attempt at", cell: (r) => <UtcTime date={r.at} /> },
        { header: "Answer", cell: (r) => <Answer row={r} /> },
        { header: "Took", numeric: true, cell: (r) => `${r.durationMs} ms` },
        { header: "Next try", cell: (r) => (r.nextAttemptAt ? <UtcTime date={r.nextAttemptAt} /> : "") },
      ]}
      rows={attemptRows(deliveries)}
      rowKey={(r) => r.key}
      empty="No deliveries yet."
    />
  );
}
