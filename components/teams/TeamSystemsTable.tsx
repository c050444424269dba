/** A team's systems as the team page lists them; members get an Edit link per row. */
import Link from "next/link";
import type { SystemRow } from "@/lib/teams/systems";

/** Stored links were checked as http(s) when written; anything else is shown as text, never as an href. */
const webUrl = (url: string) => /^https?:\/\//i.test(url);

export function TeamSystemsTable({ slug, systems, editable }: { slug: string; systems: SystemRow[]; editable: boolean }) {
  if (systems.length === 0) {
    return <p className="muted">No systems yet{editable ? ": describe one below before submitting predictions" : ""}.</p>;
  }
  return (
    <div className="table-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">System</th>
            <th scope="col">Model</th>
            <th scope="col">Scaffold</th>
            <th scope="col">Context configuration</th>
            <th scope="col">Open weights</th>
            <th scope="col">Open scaffold</th>
            <th scope="col">Links</th>
            {editable && (
              <th scope="col">
                <span className="visually-hidden">Edit</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {systems.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                {s.name}
                <br />
                <code className="muted" title="chainswe submit --system">
                  {slug}/{s.name}
                </code>
              </th>
              <td>{s.model}</td>
              <td>{s.scaffold}</td>
              <td>{s.contextConfig}</td>
              <td>{s.openWeights ? "yes" : "no"}</td>
              <td>{s.openScaffold ? "yes" : "no"}</td>
              <td>
                {s.links.length === 0 ? (
                  <span className="muted">—</span>
                ) : (
                  <ul className="links">
                    {s.links.map((l) => (
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
                )}
              </td>
              {editable && (
                <td>
                  <Link href={`/teams/${slug}?edit=${s.id}#system-form`} aria-label={`Edit ${s.name}`}>
                    Edit
                  </Link>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
