export { loadDataset, sha256File, type Dataset } from "./dataset";
export { loadPredictions, patchOverLimit, patchSizeOverLimit, type Predictions } from "./predictions";
export { readRecords, fieldPath } from "./records";
