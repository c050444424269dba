/**
 * The admin page's audit log: a filter held in the URL (action, actor,
 * subject), the page's entries with each subject linked to its page, and the
 * way to the other pages. Bad filter values are named and left out.
 */
import Link from "next/link";
import { DataTable } from "@/components/ui/DataTable";
import { UtcTime } from "@/components/ui/Time";
import { ViewForm } from "@/components/ui/ViewForm";
import { AUDIT_ACTIONS } from "@/core/schemas/columns";
import { AUDIT_PAGE_SIZE, auditHref, userAnchor, type AuditQuery } from "@/lib/accounts/audit-query";
import type { AuditPage } from "@/lib/accounts/audit";
import type { QueryProblem } from "@/lib/view-query";

const words = (action: string) => action.replaceAll("_", " ");

export function AuditLog({ audit, query, problems }: { audit: AuditPage; query: AuditQuery; problems: QueryProblem[] }) {
  const filtered = Boolean(query.action || query.actor || query.subject);
  const first = (audit.page - 1) * AUDIT_PAGE_SIZE + 1;
  return (
    <section aria-labelledby="audit-heading">
      <p className="muted">Reviewer, site-admin and team actions on submissions, proposed chains and roles, newest first.</p>
      <ViewForm className="list-filters" action="/admin" label="Filter the audit log">
        <label>
          Action
          <select name="action" defaultValue={query.action ?? ""}>
            <option value="">any</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {words(a)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Actor
          <input name="actor" defaultValue={query.actor ?? ""} placeholder="username" size={14} />
        </label>
        <label>
          Subject
          <input name="subject" defaultValue={query.subject ?? ""} placeholder="id or username" size={24} />
        </label>
        <button type="submit" className="secondary">
          Apply
        </button>
        {filtered && <Link href={auditHref({})}>Clear</Link>}
      </ViewForm>
      {problems.length > 0 && (
        <p className="error" role="alert">
          Ignored: {problems.map((p) => `${p.field}: ${p.message}`).join("; ")}.
        </p>
      )}
      <p className="muted" aria-live="polite">
        {audit.total === 0
          ? filtered
            ? "No entry matches this filter."
            : "Nothing logged yet."
          : `Entries ${first}–${first + audit.rows.length - 1} of ${audit.total}${filtered ? " matching the filter" : ""}.`}
      </p>
      {audit.rows.length > 0 && (
        <DataTable
          caption="Audit log entries"
          captionHidden
          columns={[
            { header: "When", nowrap: true, cell: (a) => <UtcTime date={a.createdAt} /> },
            {
              header: "Actor",
              cell: (a) =>
                a.actor ? <Link href={userAnchor(a.actor.userId)}>{a.actor.username ?? a.actor.name ?? a.actor.userId}</Link> : <span className="muted">command line</span>,
            },
            { header: "Action", cell: (a) => words(a.action) },
            {
              header: "Subject",
              cell: (a) => (
                <>
                  <span className="muted">{words(a.subject.kind)}</span>{" "}
                  {a.subject.href ? <Link href={a.subject.href}>{a.subject.label}</Link> : <span title={a.subject.id}>{a.subject.label}</span>}
                </>
              ),
            },
            { header: "Reason", cell: (a) => a.reason },
          ]}
          rows={audit.rows}
          rowKey={(a) => a.id}
          rowHeader={false}
        />
      )}
      {audit.pages > 1 && (
        <nav className="pager" aria-label="Audit log pages">
          {audit.page > 1 && <Link href={auditHref({ ...query, page: audit.page - 1 })}>← Newer</Link>}
          <span>
            Page {audit.page} of {audit.pages}
          </span>
          {audit.page < audit.pages && <Link href={auditHref({ ...query, page: audit.page + 1 })}>Older →</Link>}
        </nav>
      )}
    </section>
  );
}
