/**
 * The chain-error analysis (SPEC §5): what was stored when
 * evaluations completed (ChainErrorAnalysis rows) of public Seq and Seq+Mem
 * submissions whose Oracle submission is public too, narrowed by the page's
 * filters and summed. /analysis and its export route share it.
 */
import { chainErrorBreakdownOf, chainErrorBreakdownSchema, seqModeSchema, type ChainError, type ChainErrorBreakdown, type SeqMode } from "@/core/analysis";
import type { AnalysisQuery } from "@/lib/analysis/url";
import { filterChainErrors, sumBreakdowns, type CombinedBreakdown } from "@/lib/analysis/view";
import { db } from "@/db/client";
import { parseColumn } from "@/core/schemas/columns";
import { storedChainErrorsSchema } from "@/lib/leaderboard/aggregates";
import { versionsNewestFirst } from "@/lib/leaderboard/data";
import { defaultVersion } from "@/lib/dataset/default-version";
import { storedChainRecords, windowKeeps, windowSummary, type WindowSummary } from "@/lib/leaderboard/window";
import { bugWindowOf } from "@/lib/view-query";

export type AnalysisEntry = {
  seqSubmissionId: string;
  oracleSubmissionId: string;
  system: { id: string; name: string; model: string; contextConfig: string };
  team: { name: string; slug: string };
  mode: SeqMode;
  breakdown: ChainErrorBreakdown;
};

export type ChainErrorRow = ChainError & { seqSubmissionId: string; systemId: string; team: string };

export type SystemOption = { id: string; name: string; team: string; modes: SeqMode[] };

export type ChainErrorView = {
  version: string | null;
  versions: string[];
  query: AnalysisQuery;
  /** what the bug-date window keeps; null when none is set */
  window: WindowSummary | null;
  /** every system with a public analysis on the version, for the filter */
  systems: SystemOption[];
  /** the analyses the system and mode filters keep */
  analyses: AnalysisEntry[];
  combined: CombinedBreakdown;
  /** their chain errors, narrowed by position, cause and fingerprint */
  errors: ChainErrorRow[];
  /** their chain errors before that narrowing */
  errorsTotal: number;
};

/**
 * Stored analyses of public Seq / Seq+Mem submissions whose Oracle submission is
 * public too; the newest per system × mode stands for it, as on the leaderboard.
 */
async function publicAnalyses(version: string): Promise<(AnalysisEntry & { errors: ChainError[]; scoredAt: Date | null })[]> {
  // the full version's rows: a Mini split row is another board's (SPEC §8)
  const visible = { visibility: "public", status: "completed", split: "full" };
  const rows = await db.chainErrorAnalysis.findMany({
    where: { seqSubmission: { ...visible, datasetVersion: { version } }, oracleSubmission: visible },
    orderBy: [{ seqSubmission: { finishedAt: "desc" } }, { seqSubmissionId: "desc" }],
    select: {
      seqSubmissionId: true,
      oracleSubmissionId: true,
      chainErrors: true,
      breakdown: true,
      seqSubmission: {
        select: {
          mode: true,
          score: { select: { computedAt: true } },
          system: { select: { id: true, name: true, model: true, contextConfig: true, team: { select: { name: true, slug: true } } } },
        },
      },
    },
  });
  const seen = new Set<string>();
  return rows.flatMap((r) => {
    const { team, ...system } = r.seqSubmission.system;
    const key = `${system.id}\0${r.seqSubmission.mode}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [
      {
        seqSubmissionId: r.seqSubmissionId,
        oracleSubmissionId: r.oracleSubmissionId,
        system,
        team,
        mode: seqModeSchema.parse(r.seqSubmission.mode),
        breakdown: parseColumn(chainErrorBreakdownSchema, r.breakdown, "ChainErrorAnalysis.breakdown"),
        errors: parseColumn(storedChainErrorsSchema, r.chainErrors, "ChainErrorAnalysis.chainErrors"),
        scoredAt: r.seqSubmission.score?.computedAt ?? null,
      },
    ];
  });
}

const bySystemThenMode = (a: AnalysisEntry, b: AnalysisEntry) =>
  (a.system.name < b.system.name ? -1 : a.system.name > b.system.name ? 1 : 0) || (a.mode < b.mode ? -1 : a.mode > b.mode ? 1 : 0);

export async function getChainErrorView(query: AnalysisQuery): Promise<ChainErrorView> {
  const versions = await versionsNewestFirst();
  const version = query.version ?? (await defaultVersion(versions));
  const known = version !== null && versions.includes(version);
  const window = known ? await windowKeeps(version, bugWindowOf(query)) : null;
  const all = known ? (await inWindow(await publicAnalyses(version), window)).sort(bySystemThenMode) : [];
  const systems = new Map<string, SystemOption>();
  for (const a of all) {
    const opt = systems.get(a.system.id) ?? { id: a.system.id, name: a.system.name, team: a.team.name, modes: [] };
    opt.modes.push(a.mode);
    systems.set(a.system.id, opt);
  }
  const picked = new Set(query.system);
  const kept = all.filter((a) => (picked.size === 0 || picked.has(a.system.id)) && (!query.mode || a.mode === query.mode));
  const errors: ChainErrorRow[] = kept.flatMap((a) =>
    a.errors.map((e) => ({ ...e, seqSubmissionId: a.seqSubmissionId, systemId: a.system.id, team: a.team.name })),
  );
  return {
    version,
    versions,
    query,
    window: window?.set ? windowSummary(bugWindowOf(query), window.keeps) : null,
    systems: [...systems.values()],
    analyses: kept.map(({ errors: _, ...entry }) => entry),
    combined: sumBreakdowns(kept.map((a) => a.breakdown)),
    errors: filterChainErrors(errors, query),
    errorsTotal: errors.length,
  };
}

/**
 * The analyses over the chains a bug-date window keeps (SPEC §7): their chain
 * errors in those chains only, and each breakdown recomputed against the Seq
 * run's unresolved bugs in them. Unchanged when the window keeps every chain.
 */
async function inWindow<A extends AnalysisEntry & { errors: ChainError[]; scoredAt: Date | null }>(analyses: A[], window: Awaited<ReturnType<typeof windowKeeps>>): Promise<A[]> {
  if (!window?.narrowed) return analyses;
  const { inside } = window.keeps;
  const scored = analyses.filter((a) => a.scoredAt !== null);
  const records = await storedChainRecords(scored.map((a) => ({ id: a.seqSubmissionId, computedAt: a.scoredAt! })));
  return scored.flatMap((a) => {
    const chains = records.get(a.seqSubmissionId);
    if (!chains) return [];
    const errors = a.errors.filter((e) => inside.has(e.continuous_id));
    const seq = { system: a.breakdown.system, mode: a.mode };
    return [{ ...a, errors, breakdown: chainErrorBreakdownOf(errors, seq, chains.filter((c) => inside.has(c.continuous_id))) }];
  });
}
