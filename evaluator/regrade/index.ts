export { listsFromResult, regradeBug, type RegradeInput, type RegradeOutcome, type TestChange } from "./regrade";
export { formatDirRegrade, regradeDir, regradeStored, REGRADED_RESULTS_FILE, REGRADE_REPORT_FILE, type BugChange, type DirRegrade } from "./dir";
