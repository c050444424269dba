/**
 * Leaderboard metrics (SPEC §4): pure functions over graded bugs and run summaries.
 * Never imports dockerode, Prisma or the file system.
 */
export {
  SCORINGS,
  POSITION_SETS,
  indexBugs,
  applyScoring,
  chainOutcomes,
  chainRecords,
  scoreChainRecords,
  countResolved,
  isChainResolved,
  NO_EFFORT,
  type RunResults,
  type Scoring,
  type PositionSet,
  type ChainOutcome,
} from "./outcomes";
export {
  DEFAULT_SEED,
  DEFAULT_DRAWS,
  CI_LEVEL,
  bootstrapIntervals,
  percentile,
  resolveBootstrap,
  type BootstrapOptions,
  type Indices,
  type Interval,
  type ResampleStat,
} from "./bootstrap";
export {
  scoringSchema,
  positionSetSchema,
  intervalSchema,
  estimateSchema,
  positionRateSchema,
  bootstrapInfoSchema,
  chainRecordSchema,
  type ChainRecord,
  runScoresSchema,
  pairedComparisonSchema,
  type Estimate,
  type PositionRate,
  type RunScores,
  type PairedComparison,
} from "./schemas";
export {
  scoreRun,
  scoreOutcomes,
  scoreOutcomeSets,
  scoreValues,
  scoreGroupValues,
  costPerSolvedChain,
  type RunValues,
  headlineRates,
  chainTotals,
  perBugPercent,
  allIndices,
  type ChainTotals,
  type ScoreOptions,
} from "./score-run";
export { bugWindowSchema, daySchema, isWindowSet, bugDay, dayAfter, chainsInWindow, scoreRunsInWindow, valuesInWindow, headlinesInWindow, chainSolvedShares, type BugWindow, type DatedChain, type WindowKeeps } from "./window";
export { heldOutScore, type HeldOutScore } from "./held-out";
export { pairedComparison, type PairedOptions } from "./paired";
export { EFFORT_KINDS, effortKindSchema, budgetChains, budgetCurve, budgetCurveOfRun, type EffortKind, type BudgetBug, type BudgetChain, type BudgetCurve, type BudgetPoint } from "./budget";
export { rankTiers, TIER_ALPHA, type RowTier, type TierInput } from "./tiers";
export {
  MISSING,
  MINUS,
  relativeChange,
  formatRelativeChange,
  formatWithChange,
  MODE_LABELS,
  formatPercent,
  formatInterval,
  formatCost,
  formatTokens,
  formatShare,
  renderTable,
  type Align,
} from "./format";
export { discrimination, TOP_N, type Discrimination, type DiscriminationChain, type DiscriminationRow, type ItemFigures, type ChainFigures, type BugFigures, type FitSummary } from "./discrimination";
