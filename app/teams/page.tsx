import Link from "next/link";
import { redirect } from "next/navigation";
import { TeamCreateForm } from "@/components/TeamCreateForm";
import { getViewer } from "@/lib/auth/viewer";
import { listTeams } from "@/lib/data/teams";

export const metadata = { title: "Teams · ChainSWE" };

export default async function TeamsPage() {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/teams");
  const teams = await listTeams(viewer);
  return (
    <main>
      <h1>Your teams</h1>
      {teams.length === 0 ? (
        <p className="muted">You are in no team yet: create one below, or ask a team&apos;s admin to add you by your username ({viewer.username ?? "none"}).</p>
      ) : (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Team</th>
                <th scope="col">Your role</th>
                <th scope="col" className="num">
                  Members
                </th>
                <th scope="col" className="num">
                  Systems
                </th>
              </tr>
            </thead>
            <tbody>
              {teams.map((t) => (
                <tr key={t.slug}>
                  <th scope="row">
                    <Link href={`/teams/${t.slug}`}>{t.name}</Link>
                  </th>
                  <td>{t.role}</td>
                  <td className="num">{t.members}</td>
                  <td className="num">{t.systems}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Create a team</h2>
      <TeamCreateForm />
    </main>
  );
}
