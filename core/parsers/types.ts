/** Test statuses as SPEC §3 step 4 names them. */
export const TEST_STATUSES = ["PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS"] as const;
export type TestStatus = (typeof TEST_STATUSES)[number];

/**
 * What a parser read from a test log: every status reported for each test id,
 * in order of appearance. Several observations of one test are kept (not merged)
 * so grading can see when output contradicts itself (SPEC §3: tampering).
 */
export type ParsedLog = {
  observations: Map<string, TestStatus[]>;
};

export type LogParser = (log: string) => ParsedLog;
