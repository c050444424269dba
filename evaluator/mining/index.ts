export { SOURCES, detectSource, parseInstance, type Instance, type Source } from "./instances";
export { loadInstances, parseInstanceFileArg } from "./load";
export { mine, type MineResult, type MiningDrop } from "./mine";
export { OVERLAP_LEVELS, pairwiseOverlap, changedLines, touchedSymbols, type OverlapLevel } from "./overlap";
export { byRepository, joinRuns, windows, candidateWindows, miningRecordSchema, type JoinReason } from "./plan";
export { pythonDefinitions } from "./python-symbols";
export { selectChains, splitByVerdict, solvedEnough, type Rejection } from "./select";
export { writeJsonl, besideOutput } from "./write";
