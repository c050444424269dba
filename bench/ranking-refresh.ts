/**
 * bench/ranking-refresh: what the ranking refresh costs (SPEC §4 "Rank tiers",
 * "Chains that still discriminate") on the synthetic database of
 * bench/seed-leaderboard.ts (1,000 public submissions × 304 bugs, 600 board
 * rows), in this process:
 *
 *   refresh   refreshVersionRanking: the board's rows read, their chain records
 *             parsed, tiers and discrimination under both scorings, stored
 *   fits      each stored Rasch fit: rows × items, iterations, converged
 *   rasch     fitRasch alone on every board row × 304 bugs (strict), ~600 × 304
 *   board     getLeaderboard's first call after a refresh (the new ranking
 *             changes the board's data version, so it is recomputed from the
 *             stored scores, tiers read), then a second call (from memory);
 *             target ≤ 150 ms for the first
 *
 * and the load average before and after (the machine is shared). Usage:
 *   npm run bench:ranking-refresh -- <path/to/site.db> [--repeat 3]
 * The database is migrated first (`chainswe db migrate`), so one seeded by an
 * older commit gains the newer columns.
 */
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { repeat: { type: "string", default: "3" } } });
if (!positionals[0]) {
  console.error("usage: bench/ranking-refresh.ts <path/to/site.db> [--repeat 3]");
  process.exit(2);
}
const ROOT = new URL("../", import.meta.url).pathname;
const url = `file:${resolve(positionals[0])}`;
const REPEAT = Math.max(1, Number(args.repeat));
process.env.DATABASE_URL = url;
execFileSync(process.execPath, [join(ROOT, "bin", "chainswe.mjs"), "db", "migrate"], { cwd: ROOT, env: process.env, stdio: "inherit" });

const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");
const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const { db } = await import("@/db/client");
  const { refreshVersionRanking } = await import("@/lib/leaderboard/ranking-refresh");
  const { storedDiscrimination } = await import("@/lib/leaderboard/discrimination");
  const { getLeaderboard } = await import("@/lib/leaderboard/data");
  const { parseStoredChains } = await import("@/lib/leaderboard/stored-scores");
  const { scoreChainRecords } = await import("@/core/scoring");
  const { fitRasch } = await import("@/core/statistics");
  console.log(`load average before: ${load()}`);
  const version = await db.datasetVersion.findFirstOrThrow({ orderBy: { createdAt: "desc" }, select: { id: true, version: true } });

  await getLeaderboard({ version: version.version }); // the site's caches warm, as a running site's are
  const boards: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = performance.now();
    const ranking = (await refreshVersionRanking(version.id))!;
    const refresh = performance.now() - t;
    const b = performance.now();
    const board = await getLeaderboard({ version: version.version });
    const first = performance.now() - b;
    boards.push(first);
    const c = performance.now();
    await getLeaderboard({ version: version.version });
    console.log(
      `refresh ${i + 1}: ${refresh.toFixed(0)} ms (${ranking.strict.length} rows ranked per scoring); board's first request after it: ${first.toFixed(0)} ms (${board.rows.length} rows, ${board.rows.filter((r) => r.tier).length} with a tier), second: ${ms(c)}`,
    );
  }
  console.log(`board's first request after a refresh, median of ${REPEAT}: ${median(boards).toFixed(0)} ms (target ≤ 150 ms)`);

  const stored = (await storedDiscrimination(version.version))!;
  for (const scoring of ["strict", "lenient"] as const) {
    for (const m of stored.figures[scoring]) {
      const f = (x: typeof m.fit.bugs) => `${x.rows}×${x.items} ${x.iterations} iterations ${x.converged ? "converged" : "NOT converged"} (max |gradient| ${x.max_gradient.toExponential(1)})`;
      console.log(`stored fit, ${scoring} ${m.mode}: bugs ${f(m.fit.bugs)}; chains ${f(m.fit.chains)}; ${m.chains.filter((c) => c.separates_top).length} of ${m.chains.length} chains separate the top ${m.top_n}`);
    }
  }

  // one fit over every board row at once (all modes), rows × 304 bugs, strict
  const board = await getLeaderboard({ version: version.version });
  const ids = board.rows.map((r) => r.submissionId);
  const scores = await db.submissionScore.findMany({ where: { submissionId: { in: ids } }, select: { submissionId: true, chains: true } });
  const mode = new Map(board.rows.map((r) => [r.submissionId, r.mode]));
  const rows = scores.filter((s) => s.chains).map((s) => scoreChainRecords(parseStoredChains(s.chains!), "strict", mode.get(s.submissionId)!).flatMap((o) => o.resolved.map((r) => (r ? 1 : 0))));
  const items = rows[0]!.length;
  const y = Float64Array.from(rows.flat());
  for (let i = 0; i < REPEAT; i++) {
    const t = performance.now();
    const fit = fitRasch(y, rows.length, items);
    console.log(`rasch ${i + 1}: ${rows.length} rows × ${items} bugs in ${ms(t)}, ${fit.iterations} iterations, ${fit.converged ? "converged" : "NOT converged"} (max |gradient| ${fit.max_gradient.toExponential(1)})`);
  }
  console.log(`load average after: ${load()}`);
  await db.$disconnect();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
