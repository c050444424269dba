/**
 * Where a bench's CPU time goes, on this machine (Linux, cgroup v1 cpuacct as
 * the engine sets it up here): the machine's busy time (/proc/stat), the
 * containers' (the engine's `docker` cgroup, which keeps the time of removed
 * containers), split by the containers' `chainswe.use` label (bug containers:
 * tests and entering their state; states containers: git only) from samples
 * taken while they live, and the given host processes' (/proc/<pid>/stat).
 * The rest is the engine (dockerd, containerd, shims, runc) and the kernel.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cpus } from "node:os";

const CGROUP = "/sys/fs/cgroup/cpuacct/docker";
const TICK_S = 0.01; // USER_HZ

function busySeconds(): number {
  const [, ...f] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal: all but idle and iowait
  const [user, nice, system, , , irq, softirq, steal] = f.map(Number);
  return [user, nice, system, irq, softirq, steal].reduce<number>((s, x) => s + (x ?? 0), 0) * TICK_S;
}

const readNs = (path: string) => Number(readFileSync(path, "utf8").trim()) / 1e9;

/** utime + stime of a process and its waited-for children, in seconds (0 once it is gone). */
export function processSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_S;
  } catch {
    return 0;
  }
}

export type CpuSplit = { wallS: number; cores: number; busyS: number; containersS: number; byUse: Record<string, number>; hostS: number };

export class CpuAccount {
  private readonly t0 = performance.now();
  private readonly busy0 = busySeconds();
  private readonly containers0: number;
  private readonly last = new Map<string, number>();
  private readonly first = new Map<string, number>();
  private readonly use = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  readonly available = existsSync(`${CGROUP}/cpuacct.usage`);

  constructor(everyMs = 100) {
    this.containers0 = this.available ? readNs(`${CGROUP}/cpuacct.usage`) : 0;
    this.sample(true);
    this.timer = setInterval(() => this.sample(false), everyMs);
  }

  /** `initial`: containers running when the account opens count from then, later ones from their start. */
  private sample(initial: boolean): void {
    if (!this.available) return;
    for (const id of readdirSync(CGROUP)) {
      if (!/^[0-9a-f]{64}$/.test(id)) continue;
      let used: number;
      try {
        used = readNs(`${CGROUP}/${id}/cpuacct.usage`);
      } catch {
        continue;
      }
      if (!this.first.has(id)) this.first.set(id, initial ? used : 0);
      this.last.set(id, used);
      if (!this.use.has(id)) {
        try {
          this.use.set(id, execFileSync("docker", ["inspect", "-f", '{{index .Config.Labels "chainswe.use"}}', id], { encoding: "utf8" }).trim() || "other");
        } catch {
          this.use.set(id, "other");
        }
      }
    }
  }

  /** Closes the account; `hostS` is the CPU the given host processes used meanwhile (measured by the caller). */
  close(hostS: number): CpuSplit {
    this.sample(false);
    clearInterval(this.timer);
    const byUse: Record<string, number> = {};
    for (const [id, used] of this.last) {
      const u = this.use.get(id) ?? "other";
      byUse[u] = (byUse[u] ?? 0) + used - (this.first.get(id) ?? 0);
    }
    return {
      wallS: (performance.now() - this.t0) / 1000,
      cores: cpus().length,
      busyS: busySeconds() - this.busy0,
      containersS: this.available ? readNs(`${CGROUP}/cpuacct.usage`) - this.containers0 : NaN,
      byUse,
      hostS,
    };
  }
}
