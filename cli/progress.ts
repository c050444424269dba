/** A progress bar on a terminal, plain lines otherwise (CI logs). */
import cliProgress from "cli-progress";
import type { EvaluateEvent } from "@/evaluator/replay";

export function progressReporter(label: string): { onEvent: (e: EvaluateEvent) => void; stop: () => void } {
  const tty = Boolean(process.stderr.isTTY);
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: `${label} [{bar}] {value}/{total} chains | {bugs} bugs graded, {resolved} resolved | {last}`, stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : null;
  let bugs = 0;
  let resolved = 0;
  let done = 0;
  let total = 0;
  const line = (s: string) => process.stderr.write(`${label}: ${s}\n`);
  return {
    onEvent(e) {
      if (e.kind === "start") {
        total = e.total;
        done = e.skipped;
        bar?.start(total, done, { bugs, resolved, last: e.skipped ? `${e.skipped} already done` : "" });
        if (!bar) line(`${total} chain(s), ${e.skipped} already done`);
      } else if (e.kind === "bug") {
        bugs++;
        if (e.bug.resolved) resolved++;
        bar?.update(done, { bugs, resolved, last: `${e.bug.continuous_id}#${e.bug.order} ${e.bug.resolved ? "resolved" : e.bug.fingerprint}` });
      } else if (e.kind === "chain_done") {
        done++;
        bar?.update(done, { bugs, resolved });
        if (!bar) line(`[${done}/${total}] ${e.continuousId}: ${e.bugs.map((b) => (b.resolved ? "✓" : "✗")).join("")}`);
      } else {
        done++;
        bar?.update(done, { bugs, resolved, last: `${e.continuousId} ${e.errorKind} error` });
        line(`${e.continuousId}: ${e.errorKind} error: ${e.error.message.split("\n")[0]}`);
      }
    },
    stop: () => bar?.stop(),
  };
}

/** A bar over any counted step (mining's instances); plain lines, every 10%, otherwise. */
export function stepProgress(label: string): { tick: (done: number, total: number, detail: string) => void; stop: () => void } {
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar({ format: `${label} [{bar}] {value}/{total} | {detail}`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic)
    : null;
  let started = false;
  return {
    tick(done, total, detail) {
      if (bar && !started) bar.start(total, 0, { detail });
      started = true;
      bar?.update(done, { detail });
      if (!bar && (done === total || done % Math.max(1, Math.ceil(total / 10)) === 0)) process.stderr.write(`${label}: ${done}/${total} ${detail}\n`);
    },
    stop: () => bar?.stop(),
  };
}
