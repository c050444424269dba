/**
 * /submissions: every submission the viewer may read (public ones; their
 * teams' too; everything for reviewers), newest first, filtered by query
 * parameters and paged by cursor (lib/submissions/list.ts, the same list
 * GET /api/v1/submissions serves).
 */
import type { Metadata } from "next";
import Link from "next/link";
import { MODE_LABELS } from "@/core/scoring/format";
import { getViewer } from "@/lib/auth/viewer";
import { listSubmissions, parseSubmissionListQuery, type SubmissionListQuery } from "@/lib/submissions/list";
import type { Viewer } from "@/lib/accounts/users";
import { FieldError } from "@/core/errors";
import { SUBMISSION_STATUSES, VISIBILITIES } from "@/core/schemas/columns";
import { MODES } from "@/core/schemas/prediction";
import { visibilityLabel } from "@/lib/submissions/visibility";
import { utcWhen } from "@/core/format";
import { DataTable } from "@/components/ui/DataTable";
import { ViewForm } from "@/components/ui/ViewForm";

export const metadata: Metadata = { title: "Submissions · ChainSWE" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const FILTERS = ["team", "system", "mode", "dataset_version", "status", "visibility"] as const;


/** This page's URL with the query's filters and the given cursor. */
function href(q: SubmissionListQuery, cursor?: string): string {
  const params = new URLSearchParams();
  for (const f of FILTERS) if (q[f]) params.set(f, q[f]);
  if (cursor) params.set("cursor", cursor);
  const s = params.toString();
  return s ? `/submissions?${s}` : "/submissions";
}

function EmptyState({ viewer, filtered }: { viewer: Viewer | null; filtered: boolean }) {
  if (filtered) {
    return (
      <p>
        No submission you can see matches these filters. <Link href="/submissions">Clear the filters</Link>.
      </p>
    );
  }
  if (viewer && viewer.teams.length > 0) {
    return (
      <p>
        Nothing here yet: no submission has been published, and your team has not submitted any.{" "}
        <Link href="/submit">Submit predictions</Link>.
      </p>
    );
  }
  return (
    <p>
      No public submission yet: a team&apos;s results appear here once it publishes them and a reviewer approves.
      {viewer ? " Join or create a team on Teams to submit your own." : ""}
    </p>
  );
}

export default async function SubmissionsPage({ searchParams }: Props) {
  const viewer = await getViewer();
  let query: SubmissionListQuery;
  let badFilter: string | null = null;
  try {
    query = parseSubmissionListQuery(await searchParams);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    badFilter = `Filter ${e.message}; showing everything instead.`;
    query = parseSubmissionListQuery({});
  }
  let page: Awaited<ReturnType<typeof listSubmissions>>;
  try {
    page = await listSubmissions(viewer, query);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    badFilter = `${e.message}; showing the first page.`;
    page = await listSubmissions(viewer, { ...query, cursor: undefined });
  }
  const filtered = FILTERS.some((f) => query[f]);
  return (
    <main>
      <h1>Submissions</h1>
      <p className="muted">
        {viewer
          ? "Public submissions, and your team's (private ones are marked). Newest first."
          : "Published submissions, newest first. Sign in to see your team's own."}
      </p>
      <ViewForm className="list-filters" action="/submissions" label="Filter the submissions">
        <label>
          Mode
          <select name="mode" defaultValue={query.mode ?? ""}>
            <option value="">any</option>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {MODE_LABELS[m]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status" defaultValue={query.status ?? ""}>
            <option value="">any</option>
            {SUBMISSION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Visibility
          <select name="visibility" defaultValue={query.visibility ?? ""}>
            <option value="">any</option>
            {VISIBILITIES.map((v) => (
              <option key={v} value={v}>
                {visibilityLabel(v)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Team
          <input name="team" defaultValue={query.team ?? ""} placeholder="name or slug" list="my-teams" size={16} />
          <datalist id="my-teams">
            {viewer?.teams.map((t) => <option key={t.id} value={t.name} />)}
          </datalist>
        </label>
        {query.system && <input type="hidden" name="system" value={query.system} />}
        {query.dataset_version && <input type="hidden" name="dataset_version" value={query.dataset_version} />}
        <button type="submit" className="secondary">
          Apply
        </button>
        {filtered && <Link href="/submissions">Clear</Link>}
      </ViewForm>
      {badFilter && <p className="error">{badFilter}</p>}
      {page.items.length === 0 ? (
        <EmptyState viewer={viewer} filtered={filtered || !!query.cursor} />
      ) : (
        <DataTable
          className="submission-list"
          columns={[
            { header: "System", cell: (s) => <Link href={`/submissions/${encodeURIComponent(s.id)}`}>{s.system.name}</Link> },
            { header: "Team", cell: (s) => s.system.team.name },
            { header: "Model", cell: (s) => s.system.model },
            { header: "Mode", cell: (s) => MODE_LABELS[s.mode] },
            { header: "Dataset", cell: (s) => s.datasetVersion },
            {
              header: "Status",
              cell: (s) => (
                <>
                  {s.status}
                  {s.status === "running" && (
                    <span className="muted">
                      {" "}
                      ({s.chains.done}/{s.chains.total} chains)
                    </span>
                  )}
                </>
              ),
            },
            {
              header: "Bugs resolved",
              numeric: true,
              cell: (s) => (
                <>
                  <Link href={`/submissions/${encodeURIComponent(s.id)}`}>
                    {s.bugs.resolved}/{s.bugs.total}
                  </Link>
                  {s.bugs.graded < s.bugs.total && <span className="muted"> ({s.bugs.graded} graded)</span>}
                </>
              ),
            },
            { header: "Visibility", cell: (s) => <span className={`badge ${s.visibility}`}>{visibilityLabel(s.visibility)}</span> },
            { header: "Submitted", nowrap: true, cell: (s) => utcWhen(s.createdAt) },
            { header: "Finished", nowrap: true, cell: (s) => utcWhen(s.finishedAt) },
          ]}
          rows={page.items}
          rowKey={(s) => s.id}
        />
      )}
      <nav className="pager" aria-label="Pages">
        {query.cursor && <Link href={href(query)}>← Newest</Link>}
        {page.nextCursor && <Link href={href(query, page.nextCursor)}>Next page →</Link>}
      </nav>
    </main>
  );
}
