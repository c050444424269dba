/**
 * The pytest variants SWE-bench grades matplotlib, seaborn, astropy, requests
 * and pylint with (SPEC §3 step 4). Their logs are ordinary pytest output (`-rA`, plus `-v` lines
 * for seaborn and `-vv -o console_output_style=classic` for astropy), which
 * parsePytestLog reads; what differs is how SWE-bench *names* the tests, and so the
 * names in FAIL_TO_PASS / PASS_TO_PASS of datasets built with those parsers:
 * - SWE-bench splits a line on whitespace, so an id whose parameters hold a space
 *   is listed cut at the first space (`test_p[a b]` → `test_p[a`);
 * - for matplotlib it rewrites `MouseButton.LEFT` / `MouseButton.RIGHT` to `1` / `3`;
 * - for requests and pylint (parse_log_pytest_options), whose tests are parametrized
 *   over files, a parameter that is an absolute path keeps only `/` and its last
 *   component (`[/testbed/tests/x.py]` → `[/x.py]`), so the name does not depend on
 *   where the repository sits.
 *
 * Invariant: such a listed name is an alias of the id pytest printed, carrying the same
 * reports, so the contradiction rule sees them unchanged. An alias is added only when
 * exactly one printed id gives it and no printed id already has that name: two tests
 * cut to one name never merge into a false contradiction (the name stays absent).
 */
import { parsePytestLog } from "./pytest";
import type { LogParser, ParsedLog } from "./types";

type Aliases = (id: string) => string[];

/** SWE-bench's `line.split()[1]`: the id up to its first whitespace. */
export function cutAtSpace(id: string): string {
  const at = id.search(/\s/);
  return at < 0 ? id : id.slice(0, at);
}

/** SWE-bench's matplotlib rewrite, applied to the whole line before splitting. */
export function matplotlibName(id: string): string {
  return id.replaceAll("MouseButton.LEFT", "1").replaceAll("MouseButton.RIGHT", "3");
}

export function withAliases(parsed: ParsedLog, aliasesOf: Aliases): ParsedLog {
  const sources = new Map<string, string[]>();
  for (const id of parsed.observations.keys()) {
    for (const alias of new Set(aliasesOf(id))) {
      if (alias === id || parsed.observations.has(alias)) continue;
      sources.set(alias, [...(sources.get(alias) ?? []), id]);
    }
  }
  for (const [alias, ids] of sources) {
    const only = ids.length === 1 ? parsed.observations.get(ids[0] ?? "") : undefined;
    if (only) parsed.observations.set(alias, [...only]);
  }
  return parsed;
}

/** SWE-bench's parse_log_pytest_options naming: an absolute-path parameter (not `//`, no `*`) becomes `/` + its last component. */
export function optionsName(id: string): string {
  const m = /^(.*?)\[(.*)\]/s.exec(id);
  if (!m) return id;
  const [, main, option = ""] = m;
  const shown = option.startsWith("/") && !option.startsWith("//") && !option.includes("*") ? `/${option.split("/").pop()}` : option;
  return `${main}[${shown}]`;
}

const cutAliases: Aliases = (id) => [cutAtSpace(id)];
const optionsAliases: Aliases = (id) => [optionsName(cutAtSpace(id)), cutAtSpace(id)];
const matplotlibAliases: Aliases = (id) => {
  const renamed = matplotlibName(id);
  return [renamed, cutAtSpace(renamed), cutAtSpace(id)];
};

export const parseSeabornLog: LogParser = (log) => withAliases(parsePytestLog(log), cutAliases);
export const parseAstropyLog: LogParser = (log) => withAliases(parsePytestLog(log), cutAliases);
export const parsePytestOptionsLog: LogParser = (log) => withAliases(parsePytestLog(log), optionsAliases);
export const parseMatplotlibLog: LogParser = (log) => withAliases(parsePytestLog(log), matplotlibAliases);
