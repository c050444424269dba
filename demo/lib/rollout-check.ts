/**
 * Compares a demo system's rollout (chainswe demo rollout) with its shipped
 * predictions, pure: line by line as text, after dropping the harness's
 * measured wall_seconds (the one field a rollout cannot reproduce).
 */

function withoutWallSeconds(line: string): string {
  const { wall_seconds: _dropped, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** Differences between a rollout's JSONL and the shipped file, keyed by instance id; [] when they agree. */
export function rolloutDifferences(rolled: string, shipped: string): string[] {
  const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");
  const id = (l: string) => (JSON.parse(l) as { swebench_instance_id: string }).swebench_instance_id;
  const mine = new Map(lines(rolled).map((l) => [id(l), withoutWallSeconds(l)]));
  const problems: string[] = [];
  for (const l of lines(shipped)) {
    const got = mine.get(id(l));
    if (got === undefined) problems.push(`${id(l)}: not rolled out`);
    else if (got !== l) problems.push(`${id(l)}: differs`);
    mine.delete(id(l));
  }
  for (const extra of mine.keys()) problems.push(`${extra}: not shipped`);
  return problems;
}
