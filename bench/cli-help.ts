/**
 * bench/cli-help: how long `chainswe --help` and a command's `--help` take to
 * answer, as a user starts them (`node bin/chainswe.mjs …`, a new process each
 * time), beside a baseline measured in the same run: `node -e 0`, what any Node
 * process costs on this machine right now. The figure to read is the time over
 * the baseline, which stays meaningful on a busy machine. Runs the cases in
 * turn, round after round, so a burst of load meets every case alike. Prints
 * the median and the fastest run of each, and (on Linux) the median CPU time the
 * process used (user + system), which a busy machine inflates less than wall
 * time; asserts nothing.
 *
 * Usage: npm run bench:cli-help [-- --rounds 7]
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { CHAINSWE } from "./support";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "7" } } });
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer, not ${values.rounds}`);

const CASES: { name: string; argv: string[] }[] = [
  { name: "node -e 0 (baseline)", argv: ["-e", "0"] },
  { name: "chainswe --help", argv: [CHAINSWE, "--help"] },
  { name: "chainswe submit --help", argv: [CHAINSWE, "submit", "--help"] },
  { name: "chainswe evaluate --help", argv: [CHAINSWE, "evaluate", "--help"] },
];

/** The CPU time (ms) of this process's children that have ended: /proc's cutime + cstime, in clock ticks of 10 ms; null off Linux. */
function childrenCpu(): number | null {
  try {
    // the fields after the command's name, which is in parentheses and may hold spaces
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

function once(argv: string[]): { wall: number; cpu: number | null } {
  const cpu = childrenCpu();
  const t = performance.now();
  const run = spawnSync(process.execPath, argv, { encoding: "utf8" });
  const wall = performance.now() - t;
  if (run.status !== 0) throw new Error(`node ${argv.join(" ")} exited ${run.status}:\n${run.stderr}`);
  const after = childrenCpu();
  return { wall, cpu: cpu === null || after === null ? null : after - cpu };
}

const times = new Map(CASES.map((c) => [c.name, [] as { wall: number; cpu: number | null }[]]));
// one untimed round first: tsx's transform cache is filled as a user's second call finds it
for (const c of CASES) once(c.argv);
for (let r = 0; r < rounds; r++) for (const c of CASES) times.get(c.name)!.push(once(c.argv));

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const walls = (name: string) => times.get(name)!.map((t) => t.wall);
const baseline = median(walls(CASES[0]!.name));
console.log(`${rounds} rounds, load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
for (const c of CASES) {
  const xs = walls(c.name);
  const cpus = times.get(c.name)!.flatMap((t) => (t.cpu === null ? [] : [t.cpu]));
  const over = c === CASES[0] ? "" : `  over baseline ${s(median(xs) - baseline)}`;
  const cpu = cpus.length > 0 ? `  cpu ${s(median(cpus))}` : "";
  console.log(`${c.name.padEnd(26)} median ${s(median(xs))}  fastest ${s(Math.min(...xs))}${over}${cpu}`);
}
