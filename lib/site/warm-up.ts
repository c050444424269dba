/**
 * The site's warm-up: a new site process views each page a visitor can reach once, as a
 * visitor, before it says it is ready. The first view of a route in a process compiles
 * that route's code and the components it renders on the site's one thread (0.3–0.5 s,
 * docs/BENCHMARKS.md), and every request arriving meanwhile waits behind it; paid here,
 * at start, no visitor's request ever pays it. The pages of a bug, a submission, a chain
 * and a team are viewed with real ones when the database holds them (a public bug with a
 * shown trajectory first, so the timeline's code is compiled too), else with a name that
 * finds nothing (their 404 still loads the route).
 */
import { db } from "@/db/client";
import { chainHref, datasetHref } from "@/lib/dataset/url";
import { failurePageUrl, logPageUrl, submissionPageUrl } from "@/lib/submissions/urls";

/** What the warm-up views where the database holds nothing public: a name no row has. */
const NOTHING = "warm-up";

/**
 * Pages whose address names nothing, viewed as they are (those for the signed-in redirect a
 * visitor, which still loads their route), and the API's most read answers.
 */
const FIXED = [
  "/", "/analysis", "/positions", "/compare", "/dataset", "/dataset/proposals", "/dataset/proposals/new", `/dataset/proposals/${NOTHING}`,
  "/submissions", "/teams", "/signin", "/signup", "/account", "/admin", "/notifications", "/review", "/submit",
  "/api/v1/dataset", "/api/v1/leaderboard",
];

/** The addresses the warm-up views, in order. */
export async function warmUpPaths(): Promise<string[]> {
  const shown = await db.trajectory.findFirst({
    where: { submission: { visibility: "public", trajectoriesPublic: true } },
    select: { submissionId: true, continuousId: true, order: true },
    orderBy: { submission: { createdAt: "desc" } },
  });
  const bug =
    shown ??
    (await db.bugResult.findFirst({
      where: { resolved: false, submission: { visibility: "public" } },
      select: { submissionId: true, continuousId: true, order: true },
      orderBy: { submission: { createdAt: "desc" } },
    })) ?? { submissionId: NOTHING, continuousId: NOTHING, order: 1 };
  const chain = await db.chain.findFirst({ select: { continuousId: true, datasetVersion: { select: { version: true } } }, orderBy: { id: "asc" } });
  const version = chain?.datasetVersion.version ?? NOTHING;
  const team = await db.team.findFirst({ select: { slug: true }, orderBy: { createdAt: "asc" } });
  return [
    ...FIXED,
    datasetHref(version),
    chainHref(version, chain?.continuousId ?? NOTHING),
    submissionPageUrl(bug.submissionId),
    `/api/v1/submissions/${encodeURIComponent(bug.submissionId)}`,
    failurePageUrl(bug.submissionId, bug.continuousId, bug.order),
    logPageUrl(bug.submissionId, bug.continuousId, bug.order),
    `/teams/${encodeURIComponent(team?.slug ?? NOTHING)}`,
  ];
}

/**
 * Views every warm-up page at `base`, one after the other; answers how many answered and
 * how long it took. A page that fails is logged and skipped: the warm-up never stops a site.
 */
export async function warmUp(base: string, log: (line: string) => void): Promise<{ pages: number; ms: number }> {
  const started = performance.now();
  let pages = 0;
  let paths: string[];
  try {
    paths = await warmUpPaths();
  } catch (e) {
    log(`warm-up skipped: ${(e as Error).message}`);
    return { pages, ms: performance.now() - started };
  }
  for (const path of paths) {
    try {
      const res = await fetch(`${base}${path}`, { redirect: "manual", signal: AbortSignal.timeout(60_000) });
      await res.arrayBuffer();
      pages++;
    } catch (e) {
      log(`warm-up: ${path}: ${(e as Error).message}`);
    }
  }
  return { pages, ms: performance.now() - started };
}
