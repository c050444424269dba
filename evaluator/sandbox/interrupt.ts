/**
 * Whether Ctrl-C or SIGTERM arrived (installSignalCleanup sets it): a module of
 * its own, importing nothing, so that the CLI's entry reads it without loading
 * Docker's client for commands that never start a container.
 */
let interrupted = false;

/** True once Ctrl-C or SIGTERM arrived: the exit code is already decided. */
export function wasInterrupted(): boolean {
  return interrupted;
}

export function markInterrupted(): void {
  interrupted = true;
}
