/**
 * The one HTTP call to a team's webhook: a POST to an address the team chose,
 * so treated as untrusted. Every address its host resolves to is checked
 * (./address.ts) before connecting, redirects are not followed (a 3xx is a
 * failed attempt), the whole exchange has a deadline, and at most
 * MAX_RESPONSE_BYTES of the answer are read.
 */
import { lookup, type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { coerceError } from "@/lib/errors";
import { isPrivateAddress, webhookHostProblem } from "./address";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** What one attempt came to, as the delivery log shows it. */
export type AttemptOutcome = { ok: boolean; httpStatus: number | null; error: string | null; durationMs: number };

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, refusing a name that resolves to any private address (checked on what is connected to, so a name cannot switch after a check). */
function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const inward = addresses.find((a) => isPrivateAddress(a.address));
    if (inward) return callback(Object.assign(new Error(`${hostname} resolves to ${inward.address}, a private address`), { code: "EPRIVATE" }), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}

export function postWebhook(url: string, headers: Record<string, string>, body: string, o: { allowPrivate: boolean; timeoutMs?: number }): Promise<AttemptOutcome> {
  const started = performance.now();
  const done = (httpStatus: number | null, error: string | null): AttemptOutcome => ({
    ok: error === null && httpStatus !== null && httpStatus >= 200 && httpStatus < 300,
    httpStatus,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const refused = webhookHostProblem(url, o.allowPrivate);
  if (refused) return Promise.resolve(done(null, `refused: the URL ${refused}`));
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  const timeoutMs = o.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const req = client.request(target, {
      method: "POST",
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
      agent: false,
      ...(o.allowPrivate ? {} : { lookup: guardedLookup }),
    });
    const deadline = setTimeout(() => {
      finish(done(null, `no answer within ${timeoutMs / 1000} s`));
      req.destroy();
    }, timeoutMs);
    req.on("error", (e) => finish(done(null, coerceError(e).message)));
    req.on("response", (res) => {
      const status = res.statusCode ?? null;
      let read = 0;
      const end = () => {
        const problem = status !== null && status >= 300 && status < 400 ? `redirect to ${res.headers.location ?? "(no location)"} not followed` : null;
        finish(done(status, problem));
      };
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        // the answer is not used: read a little, so a receiver that streams forever cannot hold the loop
        if (read > MAX_RESPONSE_BYTES) {
          end();
          res.destroy();
        }
      });
      res.on("end", end);
      res.on("error", end);
    });
    req.end(body);
  });
}
