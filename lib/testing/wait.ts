/**
 * The one bounded wait the tests use in place of a fixed sleep: poll until what
 * the test waits for has happened, and fail naming it if it never does. The
 * bound only stops a test that would hang; it is sized for a loaded machine.
 */
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Polls `check` every `everyMs` until it answers something other than
 * undefined, null or false, and answers that; throws "timed out waiting for
 * <what>" after `timeoutMs`.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  opts: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 240_000);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(opts.everyMs ?? 200);
  }
}

/** Waits until the clock has moved on, so a row written next is stamped later than every row before. */
export async function clockTicked(): Promise<void> {
  const now = Date.now();
  await waitFor("the clock to move on", () => Date.now() > now, { timeoutMs: 10_000, everyMs: 1 });
}
