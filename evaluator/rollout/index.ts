export { rollout, type RolloutOptions, type RolloutEvent, type RolloutSummary } from "./run";
export { rolloutChain, type RolledBug, type RolloutChainInput } from "./chain";
export { agentEnv, agentMetricsSchema, parseMetrics, parsePatchFile, predictionLine, recordedPatch, type TurnOutcome } from "./contract";
