/**
 * A real HTTP receiver for webhook tests: node:http on 127.0.0.1 and a random
 * port (or another local address), keeping every request's headers and raw
 * body, answering with the statuses it is given in turn (the last one from
 * then on), each with the headers given beside it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedRequest = { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: string };

/** An answer: a status, or a status with headers (a redirect's Location). */
export type ReceiverAnswer = number | { status: number; headers: Record<string, string> };

export async function startWebhookReceiver(
  answers: ReceiverAnswer[] = [200],
  host = "127.0.0.1",
): Promise<{ url: string; port: number; received: ReceivedRequest[]; close: () => Promise<void> }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = answers[Math.min(received.length - 1, answers.length - 1)] ?? 200;
      res.writeHead(typeof answer === "number" ? answer : answer.status, typeof answer === "number" ? {} : answer.headers);
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}/hook`,
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
