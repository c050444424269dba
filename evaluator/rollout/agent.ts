/**
 * Runs one agent turn on the host: the team's command in its own process
 * group, output to the turn's log file, stopped at the time limit (the whole
 * group: SIGTERM, then SIGKILL after a grace period).
 */
import { spawn } from "node:child_process";
import { open } from "node:fs/promises";
import { EnvironmentError, coerceError } from "@/core/errors";
import { inheritedEnv } from "@/env";

export type AgentRun = { timedOut: boolean; exitCode: number | null; wallSeconds: number };

export type AgentCommand = {
  command: string;
  env: Record<string, string>;
  logFile: string;
  timeLimitS: number;
  /** between SIGTERM and SIGKILL, ms */
  graceMs?: number;
};

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/**
 * Agents run in their own process groups, which Ctrl-C at the terminal does not
 * reach: whatever is still running when the harness exits (however it exits) is killed.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const group of liveGroups) killGroup(group, "SIGKILL");
  });
}

export async function runAgent(a: AgentCommand): Promise<AgentRun> {
  const log = await open(a.logFile, "a");
  const started = Date.now();
  try {
    const child = spawn("bash", ["-c", a.command], {
      // the team's environment (API keys…) plus the contract's variables
      env: inheritedEnv(a.env),
      stdio: ["ignore", log.fd, log.fd],
      detached: true,
    });
    if (child.pid !== undefined) trackGroup(child.pid);
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const limit = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid!, "SIGTERM");
      killer = setTimeout(() => killGroup(child.pid!, "SIGKILL"), a.graceMs ?? 2000);
    }, a.timeLimitS * 1000);
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.on("error", (e) => reject(new EnvironmentError(`cannot run the agent command: ${coerceError(e).message}`)));
      child.on("exit", (code) => resolve(code));
    }).finally(() => clearTimeout(limit));
    // what the agent left running in its group dies with the turn
    killGroup(child.pid!, "SIGKILL");
    liveGroups.delete(child.pid!);
    clearTimeout(killer);
    return { timedOut, exitCode: timedOut ? null : exitCode, wallSeconds: (Date.now() - started) / 1000 };
  } finally {
    await log.close();
  }
}
