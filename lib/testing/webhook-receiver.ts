/**
 * A real HTTP receiver for webhook tests: node:http on 127.0.0.1 and a random
 * port, keeping every request's headers and raw body, answering with the
 * statuses it is given in turn (the last one from then on).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: string };

export async function startWebhookReceiver(statuses: number[] = [200]): Promise<{ url: string; received: ReceivedRequest[]; close: () => Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
