import { env } from "@/env";

const MB = 1024 * 1024;

/** Resource bounds of an evaluation container (untrusted code runs inside). */
export type SandboxLimits = {
  memoryBytes: number;
  nanoCpus: number;
  pids: number;
  /** wall-clock limit of one test command, seconds */
  testTimeoutS: number;
  /** largest output kept from one exec, bytes */
  maxOutputBytes: number;
  /** largest file any process may write (RLIMIT_FSIZE; the writer gets SIGXFSZ or EFBIG) */
  maxFileBytes: number;
  /** the writable layer's size during a test run; past it the run is stopped */
  maxDiskBytes: number;
  /** paths added or changed in the writable layer during a test run; past it the run is stopped */
  maxDiskFiles: number;
  /** how often the writable layer is measured during a test run, ms */
  diskPollMs: number;
};

export function defaultLimits(overrides: Partial<SandboxLimits> = {}): SandboxLimits {
  const e = env();
  return {
    memoryBytes: e.CHAINSWE_MEMORY_MB * MB,
    nanoCpus: Math.round(e.CHAINSWE_CPUS * 1e9),
    pids: e.CHAINSWE_PIDS,
    testTimeoutS: e.CHAINSWE_TEST_TIMEOUT_S,
    maxOutputBytes: e.CHAINSWE_MAX_LOG_MB * MB,
    maxFileBytes: e.CHAINSWE_MAX_FILE_MB * MB,
    maxDiskBytes: e.CHAINSWE_MAX_DISK_MB * MB,
    maxDiskFiles: e.CHAINSWE_MAX_DISK_FILES,
    diskPollMs: 2000,
    ...overrides,
  };
}
