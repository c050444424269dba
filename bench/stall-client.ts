/**
 * What bench/upload-stall.ts's two halves share: the other client (sequential
 * keep-alive GETs while something costly runs) and its one-line report.
 */
import { Agent, get } from "node:http";
import { ascending, fmt, quantile } from "./support";

/** The other client: sequential GETs of `path` until `until` settles, each one's latency in ms; failed requests counted. */
export async function otherClient(port: number, path: string, until: Promise<unknown>): Promise<{ latencies: number[]; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  let errors = 0;
  while (!done) {
    const t0 = performance.now();
    const ok = await new Promise<boolean>((resolve) =>
      get({ host: "127.0.0.1", port, path, agent }, (res) => res.resume().on("end", () => resolve((res.statusCode ?? 0) < 400))).on("error", () => resolve(false)),
    );
    latencies.push(performance.now() - t0);
    if (!ok) errors++;
  }
  agent.destroy();
  return { latencies, errors };
}

export function report(label: string, latencies: number[], tail = ""): void {
  const s = ascending(latencies);
  console.log(
    `${label.padEnd(30)} ${String(s.length).padStart(6)} req  p50 ${fmt(quantile(s, 0.5), 2).padStart(7)} ms  p99 ${fmt(quantile(s, 0.99), 2).padStart(7)} ms  max ${fmt(s.at(-1) ?? NaN, 1).padStart(7)} ms${tail}`,
  );
}
