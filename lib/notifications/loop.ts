/**
 * The site's delivery loop: every pollMs, one turn of processDueDeliveries.
 * Runs beside the embedded worker (lib/site/worker.ts) in every site process,
 * whichever queue mode; deliveries are claimed one by one, so several site
 * processes share the work without sending anything twice.
 */
import { coerceError } from "@/core/errors";
import { deliverySettingsFromEnv, processDueDeliveries, type DeliverySettings } from "./deliveries";

export type DeliveryLoop = { stop(): Promise<void> };

export function startDeliveryLoop(o: { pollMs: number; log: (line: string) => void; settings?: DeliverySettings }): DeliveryLoop {
  const settings = o.settings ?? deliverySettingsFromEnv();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> = Promise.resolve();
  const tick = () => {
    turn = processDueDeliveries(settings)
      .then(() => undefined)
      .catch((e: unknown) => o.log(`delivery turn failed: ${coerceError(e).message}`))
      .finally(() => {
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, o.pollMs);
    // never what keeps a process alive
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await turn;
    },
  };
}
