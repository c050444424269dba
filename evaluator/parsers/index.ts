/**
 * Test-log parsers by framework name (SPEC §3 step 4), one file per framework,
 * behind one registry as SWE-bench's PARSER_REGISTRY. Parsers are pure: log text
 * in, every status report out.
 */
import { parsePytestLog } from "./pytest";
import type { LogParser } from "./types";
import { parseUnittestLog } from "./unittest";

export const LOG_PARSERS: Record<string, LogParser> = {
  pytest: parsePytestLog,
  unittest: parseUnittestLog,
};

export function getLogParser(name: string): LogParser {
  const parser = Object.hasOwn(LOG_PARSERS, name) ? LOG_PARSERS[name] : undefined;
  if (!parser) {
    const known = Object.keys(LOG_PARSERS).join(", ");
    throw new Error(`unknown log parser "${name}"; known parsers: ${known}`);
  }
  return parser;
}

export { TEST_STATUSES, type LogParser, type ParsedLog, type TestStatus } from "./types";
export { FAILING_STATUSES, PASSING_STATUSES, stripAnsi } from "./log-text";
export { parsePytestLog } from "./pytest";
export { parseUnittestLog } from "./unittest";
