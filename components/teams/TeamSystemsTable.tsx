/** A team's systems as the team page lists them; members get an Edit link per row. */
import Link from "next/link";
import { DataTable, type Column } from "@/components/ui/DataTable";
import type { SystemRow } from "@/lib/teams/systems";

/** Stored links were checked as http(s) when written; anything else is shown as text, never as an href. */
const webUrl = (url: string) => /^https?:\/\//i.test(url);

export function TeamSystemsTable({ slug, systems, editable }: { slug: string; systems: SystemRow[]; editable: boolean }) {
  if (systems.length === 0) {
    return <p className="muted">No systems yet{editable ? ": describe one below before submitting predictions" : ""}.</p>;
  }
  const columns: Column<SystemRow>[] = [
    {
      header: "System",
      cell: (s) => (
        <>
          {s.name}
          <br />
          <code className="muted" title="chainswe submit --system">
            {slug}/{s.name}
          </code>
        </>
      ),
    },
    { header: "Model", nowrap: true, cell: (s) => s.model },
    { header: "Scaffold", cell: (s) => s.scaffold },
    { header: "Context configuration", cell: (s) => s.contextConfig },
    { header: "Open weights", cell: (s) => (s.openWeights ? "yes" : "no") },
    { header: "Open scaffold", cell: (s) => (s.openScaffold ? "yes" : "no") },
    { header: "Released", nowrap: true, cell: (s) => s.releaseDate ?? "—" },
    { header: "Training cutoff", nowrap: true, cell: (s) => s.trainingCutoff ?? "—" },
    { header: "Links", cell: (s) => <SystemLinks links={s.links} /> },
  ];
  if (editable) {
    columns.push({
      header: "Edit",
      hiddenHeader: true,
      cell: (s) => (
        <Link href={`/teams/${slug}?edit=${s.id}#system-form`} aria-label={`Edit ${s.name}`}>
          Edit
        </Link>
      ),
    });
  }
  return <DataTable columns={columns} rows={systems} rowKey={(s) => s.id} />;
}

function SystemLinks({ links }: { links: SystemRow["links"] }) {
  if (links.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="links">
      {links.map((l) => (
        <li key={l.url + l.label}>
          {webUrl(l.url) ? (
            <a href={l.url} rel="nofollow noopener noreferrer">
              {l.label}
            </a>
          ) : (
            `${l.label} (${l.url})`
          )}
        </li>
      ))}
    </ul>
  );
}
