/**
 * Test-log parsers by framework name (SPEC §3 step 4), one file per framework,
 * behind one registry as SWE-bench's PARSER_REGISTRY. Parsers are pure: log text
 * in, every status report out.
 *
 * A chain names its parser in `log_parser`. Each parser has one canonical name (the
 * one results record) and accepts, as aliases, the names SWE-bench-family releases
 * give it (SWE-bench's `parse_log_<repo>` functions, SWE-rebench's
 * `install_config.log_parser`). Names are matched exactly; an unknown name is a
 * dataset error at import (core/schemas/dataset.ts).
 */
import { parseDjangoLog } from "./django";
import { parsePytestLog } from "./pytest";
import { parsePytestVerboseLog } from "./pytest-verbose";
import { parseAstropyLog, parseMatplotlibLog, parsePytestOptionsLog, parseSeabornLog } from "./swebench-pytest";
import { parseSympyLog } from "./sympy";
import type { LogParser } from "./types";
import { parseUnittestLog } from "./unittest";

type ParserEntry = { parse: LogParser; aliases: readonly string[] };

/** Canonical name → parser and the other names it answers to. */
export const LOG_PARSER_REGISTRY = {
  // SWE-bench grades these repositories with plain parse_log_pytest
  pytest: {
    parse: parsePytestLog,
    aliases: ["parse_log_pytest", "parse_log_astroid", "parse_log_flask", "parse_log_marshmallow", "parse_log_pvlib", "parse_log_pyvista", "parse_log_sqlfluff", "parse_log_xarray"],
  },
  // SWE-bench's v2 reads `<id> STATUS` lines too, for runs without -rA
  "pytest-verbose": {
    parse: parsePytestVerboseLog,
    aliases: ["pytest_verbose", "pytest-v", "parse_log_pytest_v2", "parse_log_scikit", "parse_log_sphinx"],
  },
  unittest: { parse: parseUnittestLog, aliases: ["parse_log_unittest"] },
  django: { parse: parseDjangoLog, aliases: ["parse_log_django", "django_runtests"] },
  sympy: { parse: parseSympyLog, aliases: ["parse_log_sympy", "sympy_bin_test"] },
  matplotlib: { parse: parseMatplotlibLog, aliases: ["parse_log_matplotlib"] },
  seaborn: { parse: parseSeabornLog, aliases: ["parse_log_seaborn"] },
  astropy: { parse: parseAstropyLog, aliases: ["parse_log_astropy"] },
  // requests and pylint: parametrized over file paths
  "pytest-options": { parse: parsePytestOptionsLog, aliases: ["parse_log_pytest_options"] },
} as const satisfies Record<string, ParserEntry>;

export type LogParserName = keyof typeof LOG_PARSER_REGISTRY;

const CANONICAL = new Map<string, LogParserName>();
for (const [name, entry] of Object.entries(LOG_PARSER_REGISTRY) as [LogParserName, ParserEntry][]) {
  CANONICAL.set(name, name);
  for (const alias of entry.aliases) CANONICAL.set(alias, name);
}

/** Every canonical parser name, in registry order. */
export const LOG_PARSER_NAMES = Object.keys(LOG_PARSER_REGISTRY) as LogParserName[];

/** Canonical parser → parse function (kept for callers that index by name). */
export const LOG_PARSERS: Record<LogParserName, LogParser> = Object.fromEntries(
  LOG_PARSER_NAMES.map((name) => [name, LOG_PARSER_REGISTRY[name].parse]),
) as Record<LogParserName, LogParser>;

/** The canonical name for a parser name or alias, or null when no parser answers to it. */
export function canonicalLogParser(name: string): LogParserName | null {
  return CANONICAL.get(name) ?? null;
}

export function unknownLogParserMessage(name: string): string {
  return `unknown log parser "${name}"; known parsers: ${LOG_PARSER_NAMES.join(", ")} (or their SWE-bench names, e.g. parse_log_django)`;
}

export function getLogParser(name: string): LogParser {
  const canonical = canonicalLogParser(name);
  if (canonical === null) throw new Error(unknownLogParserMessage(name));
  return LOG_PARSER_REGISTRY[canonical].parse;
}

export { TEST_STATUSES, type LogParser, type ParsedLog, type TestStatus } from "./types";
export { FAILING_STATUSES, PASSING_STATUSES, stripAnsi } from "./log-text";
export { parsePytestLog } from "./pytest";
export { parsePytestVerboseLog } from "./pytest-verbose";
export { parseUnittestLog } from "./unittest";
export { parseDjangoLog } from "./django";
export { parseSympyLog } from "./sympy";
export { parseAstropyLog, parseMatplotlibLog, parsePytestOptionsLog, parseSeabornLog } from "./swebench-pytest";
