import { env } from "@/env";

/** Resource bounds of an evaluation container (untrusted code runs inside). */
export type SandboxLimits = {
  memoryBytes: number;
  nanoCpus: number;
  pids: number;
  /** wall-clock limit of one test command, seconds */
  testTimeoutS: number;
  /** largest output kept from one exec, bytes */
  maxOutputBytes: number;
};

export function defaultLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  const e = env();
  return {
    memoryBytes: e.CHAINSWE_MEMORY_MB * 1024 * 1024,
    nanoCpus: Math.round(e.CHAINSWE_CPUS * 1e9),
    pids: e.CHAINSWE_PIDS,
    testTimeoutS: e.CHAINSWE_TEST_TIMEOUT_S,
    maxOutputBytes: e.CHAINSWE_MAX_LOG_MB * 1024 * 1024,
    ...overrides,
  };
}
