/**
 * Every page and route handler of the site, and what it may show of a held-out
 * chain (SPEC §8): either the addresses that the held-out browser test
 * (tests/e2e/held-out.spec.ts) fetches as a visitor, a member of the
 * submitting team and a member of another team, searching each answer for the
 * chain's ids, instance ids, problem statements, gold patches and test names;
 * or why it shows nothing of a chain. tests/unit/held-out-routes.test.ts scans
 * app/ and fails when a page or route is missing here, so a new one cannot
 * forget to decide. Plain data: imported by Playwright and by vitest.
 *
 * Placeholders: {version} the dataset version, {chain} a held-out chain,
 * {sub} and {sub2} the same system's public Seq and Oracle submissions, {team}
 * the submitting team's slug.
 */
export type HeldOutRoute = { file: string; fetch: string[] } | { file: string; shows: string };

export const HELD_OUT_ROUTES: HeldOutRoute[] = [
  { file: "app/page.tsx", fetch: ["/?version={version}&cols=scaffold,config,held_out,pass_k,runs,cost,cost_per_solved,peak_context,date,badges"] },
  { file: "app/analysis/page.tsx", fetch: ["/analysis?version={version}"] },
  { file: "app/positions/page.tsx", fetch: ["/positions?version={version}"] },
  { file: "app/compare/page.tsx", fetch: ["/compare?a={sub}&b={sub2}"] },
  { file: "app/dataset/page.tsx", fetch: ["/dataset"] },
  { file: "app/dataset/[version]/page.tsx", fetch: ["/dataset/{version}", "/dataset/{version}?positions=all"] },
  { file: "app/dataset/[version]/chains/[chain]/page.tsx", fetch: ["/dataset/{version}/chains/{chain}"] },
  { file: "app/submissions/page.tsx", fetch: ["/submissions"] },
  { file: "app/submissions/[id]/page.tsx", fetch: ["/submissions/{sub}", "/submissions/{sub2}"] },
  { file: "app/submissions/[id]/chains/[chain]/bugs/[order]/page.tsx", fetch: ["/submissions/{sub}/chains/{chain}/bugs/1", "/submissions/{sub2}/chains/{chain}/bugs/2"] },
  { file: "app/submissions/[id]/chains/[chain]/bugs/[order]/log/page.tsx", fetch: ["/submissions/{sub}/chains/{chain}/bugs/1/log"] },
  { file: "app/api/v1/leaderboard/route.ts", fetch: ["/api/v1/leaderboard?version={version}", "/api/v1/leaderboard?version={version}&format=csv&paper=1"] },
  { file: "app/api/v1/analysis/route.ts", fetch: ["/api/v1/analysis?version={version}&table=errors", "/api/v1/analysis?version={version}&table=systems&format=csv"] },
  { file: "app/api/v1/positions/route.ts", fetch: ["/api/v1/positions?version={version}", "/api/v1/positions?version={version}&table=by_model&format=csv"] },
  { file: "app/api/v1/compare/route.ts", fetch: ["/api/v1/compare?a={sub}&b={sub2}&table=chains", "/api/v1/compare?a={sub}&b={sub2}&table=difference"] },
  { file: "app/api/v1/dataset/route.ts", fetch: ["/api/v1/dataset", "/api/v1/dataset?table=repositories&format=csv"] },
  { file: "app/api/v1/dataset/[version]/route.ts", fetch: ["/api/v1/dataset/{version}", "/api/v1/dataset/{version}?table=positions&positions=all"] },
  { file: "app/api/v1/dataset/[version]/chains/[chain]/route.ts", fetch: ["/api/v1/dataset/{version}/chains/{chain}", "/api/v1/dataset/{version}/chains/{chain}?format=csv"] },
  { file: "app/api/v1/dataset/[version]/discrimination/route.ts", fetch: ["/api/v1/dataset/{version}/discrimination", "/api/v1/dataset/{version}/discrimination?table=bugs&format=csv"] },
  { file: "app/api/v1/dataset/[version]/records/route.ts", fetch: ["/api/v1/dataset/{version}/records", "/api/v1/dataset/{version}/records?format=manifest"] },
  {
    file: "app/api/v1/dataset/[version]/held-out/route.ts",
    shows: "the audited download of the problem statements (never tests or gold patches) to the team's members; the browser test checks that visitors (401) and other teams (403) get nothing",
  },
  { file: "app/api/v1/submissions/route.ts", fetch: ["/api/v1/submissions"] },
  { file: "app/api/v1/submissions/[id]/route.ts", fetch: ["/api/v1/submissions/{sub}", "/api/v1/submissions/{sub2}"] },
  { file: "app/api/v1/submissions/[id]/results.jsonl/route.ts", fetch: ["/api/v1/submissions/{sub}/results.jsonl"] },
  { file: "app/api/v1/submissions/[id]/predictions.jsonl/route.ts", fetch: ["/api/v1/submissions/{sub}/predictions.jsonl"] },
  { file: "app/api/v1/submissions/[id]/logs/[chain]/[order]/route.ts", fetch: ["/api/v1/submissions/{sub}/logs/{chain}/1"] },
  { file: "app/api/v1/submissions/[id]/trajectories/[chain]/[order]/route.ts", fetch: ["/api/v1/submissions/{sub}/trajectories/{chain}/1"] },
  { file: "app/api/v1/submissions/[id]/bundle/route.ts", fetch: ["/api/v1/submissions/{sub}/bundle"] },
  { file: "app/api/v1/submissions/[id]/cancel/route.ts", shows: "POST only: cancels; answers the submission's status" },
  { file: "app/api/v1/submissions/[id]/publication/route.ts", shows: "POST only: asks for or withdraws publication; answers the status" },
  { file: "app/api/v1/submissions/[id]/rerun/route.ts", shows: "POST only: a reviewer's re-run; answers the status" },
  { file: "app/api/v1/proposals/route.ts", shows: "proposed chains for a version: the proposer's and reviewers' own, never a version's chains" },
  { file: "app/api/v1/proposals/[id]/route.ts", shows: "one proposal: its proposer and reviewers only, never a version's chains" },
  { file: "app/api/auth/[...nextauth]/route.ts", shows: "sign-in and sessions" },
  { file: "app/account/page.tsx", shows: "the viewer's account and API tokens" },
  { file: "app/admin/page.tsx", shows: "site admins only: users, roles and re-grades" },
  { file: "app/review/page.tsx", shows: "reviewers only (who see held-out chains): the publication queue" },
  { file: "app/notifications/page.tsx", shows: "the viewer's notifications: a submission and its status, no chain" },
  { file: "app/signin/page.tsx", shows: "the sign-in form" },
  { file: "app/signup/page.tsx", shows: "the sign-up form" },
  { file: "app/submit/page.tsx", shows: "the upload form: dataset versions and modes, no chain" },
  { file: "app/teams/page.tsx", shows: "the viewer's teams and invitations" },
  { file: "app/teams/[slug]/page.tsx", shows: "a team's members, systems and webhook" },
  { file: "app/dataset/proposals/page.tsx", shows: "the viewer's proposals and the validation queue, never a version's chains" },
  { file: "app/dataset/proposals/new/page.tsx", shows: "the proposal form: dataset versions, no chain" },
  { file: "app/dataset/proposals/[id]/page.tsx", shows: "one proposal: its proposer and reviewers only, never a version's chains" },
];
