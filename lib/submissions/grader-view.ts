/**
 * Which grader produced a submission's results (SPEC §7), as the submission page and
 * API show it: one entry per distinct grader (version, package, parser) with the
 * number of bugs it graded. Results graded before grader versions existed form one
 * entry with a null version. Several entries mean the results were graded, or
 * re-graded, by different graders.
 */
export type GraderRow = { graderVersion: string | null; packageVersion: string | null; logParser: string | null };
export type GraderUse = GraderRow & { bugs: number };

export function graderUses(rows: readonly GraderRow[]): GraderUse[] {
  const uses = new Map<string, GraderUse>();
  for (const r of rows) {
    const key = `${r.graderVersion}\0${r.packageVersion}\0${r.logParser}`;
    const use = uses.get(key);
    if (use) use.bugs++;
    else uses.set(key, { graderVersion: r.graderVersion, packageVersion: r.packageVersion, logParser: r.logParser, bugs: 1 });
  }
  return [...uses.values()].sort((a, b) => b.bugs - a.bugs);
}

/** "grader 1.0.0 (chainswe 0.1.0, parser pytest)", or why there is no version. */
export function graderLabel(use: GraderRow): string {
  if (use.graderVersion === null) return "graded before grader versions were recorded";
  const details = [use.packageVersion && `chainswe ${use.packageVersion}`, use.logParser && `parser ${use.logParser}`].filter(Boolean);
  return `grader ${use.graderVersion}${details.length ? ` (${details.join(", ")})` : ""}`;
}
