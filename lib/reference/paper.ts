/**
 * The results published in the ChainSWE paper, validated once
 * and exposed as typed rows: Table 2 for the leaderboard's reported rows,
 * Tables 3 and 4 for the per-position page, Table 8 for peak context. These
 * numbers are as printed (one decimal), never re-evaluated here, so pages must
 * label them "reported in the paper, not re-evaluated here" and never rank them
 * with evaluated rows. Pure data: safe for the CLI, the worker and the client.
 */
import { z } from "zod";
import { relativeChange } from "@/core/scoring/format";
import type { Mode } from "@/core/schemas/prediction";
import raw from "./paper-results.json";

/** The paper prints modes as the portal labels them (MODE_LABELS). */
const paperModeSchema = z.enum(["Oracle", "Seq", "Seq+Mem"]).transform((m): Mode => (m === "Oracle" ? "oracle" : m === "Seq" ? "seq" : "seq_mem"));
const pct = z.number().min(0).max(100);

const positionRow = { mode: paperModeSchema, pos1: pct, pos2: pct, pos3: pct };

export const paperResultsSchema = z.object({
  source: z.string(),
  note: z.string(),
  table1_models: z.array(z.object({ model: z.string(), swe_bench_pro_pct: pct, context: z.string() })),
  table2_main: z.array(
    z.object({ model: z.string(), config: z.string(), mode: paperModeSchema, per_bug_pct: pct, chain_pct: pct, cost_usd_per_chain: z.number().nonnegative() }),
  ),
  table3_position_by_config: z.array(z.object({ config: z.string(), ...positionRow })),
  table4_position_by_model: z.array(z.object({ model: z.string(), ...positionRow })),
  table8_peak_context: z.array(z.object({ config: z.string(), oracle_k: z.number(), seq_k: z.number(), seq_mem_k: z.number() })),
  headline: z.object({ chains: z.number().int(), bugs: z.number().int(), repos: z.number().int() }).loose(),
});
export type PaperResults = z.infer<typeof paperResultsSchema>;

/** Where every reported row comes from, as the pages cite it. */
export const PAPER_SOURCE = "ChainSWE paper";
export const REPORTED_LABEL = "reported in the paper, not re-evaluated here";

let parsed: PaperResults | undefined;
export function paperResults(): PaperResults {
  parsed ??= paperResultsSchema.parse(raw);
  return parsed;
}

/** One row of the paper's Table 2 (Seq and Seq+Mem scored strictly), with its change vs the same model × configuration's Oracle row. */
export type ReportedMainRow = {
  model: string;
  config: string;
  mode: Mode;
  /** percent of the paper's 304 bugs */
  perBug: number;
  /** percent of the paper's 100 chains */
  chain: number;
  /** estimated average USD per chain */
  costPerChain: number;
  /** (this − Oracle) / Oracle as a fraction, as the paper's red subscripts; null for Oracle rows */
  vsOracle: { perBug: number | null; chain: number | null };
};

/** Table 2 in the paper's order: 7 models × 3 configurations × 3 modes. */
export function reportedMainRows(): ReportedMainRow[] {
  const rows = paperResults().table2_main;
  const oracleOf = (model: string, config: string) => rows.find((r) => r.model === model && r.config === config && r.mode === "oracle");
  return rows.map((r) => {
    const oracle = r.mode === "oracle" ? undefined : oracleOf(r.model, r.config);
    return {
      model: r.model,
      config: r.config,
      mode: r.mode,
      perBug: r.per_bug_pct,
      chain: r.chain_pct,
      costPerChain: r.cost_usd_per_chain,
      vsOracle: {
        perBug: oracle ? relativeChange(r.per_bug_pct, oracle.per_bug_pct) : null,
        chain: oracle ? relativeChange(r.chain_pct, oracle.chain_pct) : null,
      },
    };
  });
}

/** A row of Table 3 (by configuration, mean over models) or Table 4 (by model, mean over configurations). */
export type ReportedPositionRow = {
  /** the configuration (Table 3) or the model (Table 4) */
  group: string;
  mode: Mode;
  /** resolution % at positions 1, 2, 3 over the paper's 97 length-3 chains */
  positions: [number, number, number];
};

/** Table 3: per-position resolution by context configuration, averaged over the seven models (Claude-Opus rows estimated). */
export function reportedPositionsByConfig(): ReportedPositionRow[] {
  return paperResults().table3_position_by_config.map((r) => ({ group: r.config, mode: r.mode, positions: [r.pos1, r.pos2, r.pos3] }));
}

/** Table 4: per-position resolution by model, averaged over the three configurations. */
export function reportedPositionsByModel(): ReportedPositionRow[] {
  return paperResults().table4_position_by_model.map((r) => ({ group: r.model, mode: r.mode, positions: [r.pos1, r.pos2, r.pos3] }));
}

/** Table 8: mean over chains of the max input context, in tokens, by configuration and mode (averaged over models). */
export function reportedPeakContext(): { config: string; tokens: Record<Mode, number> }[] {
  return paperResults().table8_peak_context.map((r) => ({
    config: r.config,
    tokens: { oracle: r.oracle_k * 1000, seq: r.seq_k * 1000, seq_mem: r.seq_mem_k * 1000 },
  }));
}
