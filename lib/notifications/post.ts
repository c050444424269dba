/**
 * The one HTTP call to a team's webhook: a POST to an address the team chose,
 * so treated as untrusted. The host is resolved once, every address is checked
 * (./address.ts, with the machine's own interface addresses as they are now),
 * and the connection goes to those checked addresses only: the request's
 * lookup answers them without asking DNS again, so a name cannot answer a
 * public address to the check and a private one to the connection. Redirects
 * are not followed (a 3xx is a failed attempt), the whole exchange, lookup
 * included, has a deadline, and at most MAX_RESPONSE_BYTES of the answer are
 * read. The outcome is a category (./outcome.ts); the raw error is its detail.
 */
import { lookup, type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { coerceError } from "@/core/errors";
import { addressProblem, webhookHostProblem } from "./address";
import { httpFailure, type AttemptFailure, type AttemptOutcome } from "./outcome";

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** A host name's addresses: dns.lookup (the system resolver, /etc/hosts included) unless a caller passes another. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;
const systemResolve: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => lookup(hostname, { all: true, order: "verbatim" }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** Every address of this machine's interfaces right now (they change: DHCP, containers, VPNs). */
export function machineAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

export type PostOptions = {
  /** CHAINSWE_WEBHOOK_ALLOW_PRIVATE: no address is refused */
  allowPrivate: boolean;
  timeoutMs?: number;
  resolve?: ResolveHost;
  /** the machine's own addresses, refused like loopback; read from its interfaces when not given */
  ownAddresses?: readonly string[];
};

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A lookup for the request that answers the addresses already checked and nothing else. */
function pinnedLookup(addresses: LookupAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  };
}

export function postWebhook(url: string, headers: Record<string, string>, body: string, o: PostOptions): Promise<AttemptOutcome> {
  const started = performance.now();
  const done = (httpStatus: number | null, failure: AttemptFailure | null, detail: string | null): AttemptOutcome => ({
    ok: failure === null && httpStatus !== null,
    httpStatus,
    failure,
    detail,
    durationMs: Math.round(performance.now() - started),
  });
  const own = o.allowPrivate ? [] : (o.ownAddresses ?? machineAddresses());
  const refused = webhookHostProblem(url, o.allowPrivate, own);
  if (refused) return Promise.resolve(done(null, "refused address", refused));
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  const timeoutMs = o.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const host = target.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    let settled = false;
    let req: http.ClientRequest | null = null;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const deadline = setTimeout(() => {
      finish(done(null, "timed out", `no answer within ${timeoutMs / 1000} s`));
      req?.destroy();
    }, timeoutMs);

    const addresses: Promise<LookupAddress[]> = isIP(host) ? Promise.resolve([{ address: host, family: isIP(host) }]) : (o.resolve ?? systemResolve)(host);
    addresses.then(
      (found) => {
        if (settled) return;
        if (found.length === 0) return finish(done(null, "unreachable", `${host} has no address`));
        const problem = o.allowPrivate ? null : found.map((a) => addressProblem(a.address, own)).find((p) => p !== null);
        if (problem) return finish(done(null, "refused address", `${host}: ${problem}`));
        req = client.request(target, {
          method: "POST",
          headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
          agent: false,
          lookup: pinnedLookup(found),
        });
        req.on("error", (e) => finish(done(null, "unreachable", coerceError(e).message)));
        req.on("response", (res) => {
          const status = res.statusCode ?? 0;
          let read = 0;
          const end = () => finish(done(status, httpFailure(status), status >= 300 && status < 400 ? `redirect to ${res.headers.location ?? "(no location)"} not followed` : `HTTP ${status}`));
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
      },
      (e: unknown) => finish(done(null, "unreachable", `${host}: ${coerceError(e).message}`)),
    );
  });
}
