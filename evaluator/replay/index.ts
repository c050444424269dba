export { replayChain, checkChainForReplay, type BugArtifacts, type ChainReplayInput } from "./chain";
export { evaluate, type EvaluateOptions, type EvaluateEvent } from "./run";
export { loadRunResults, readResults, readSummary, RESULTS_FILE, ERRORS_FILE, SUMMARY_FILE, bugLogDir } from "./output";
export { replayInSandbox, type SandboxedReplay } from "./sandboxed";
