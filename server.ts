/**
 * The site's HTTP server: Next.js's request handler behind a thin gate. It
 * refuses a post to a page (a server action or a form) from another site
 * (CSRF, 403, lib/http/requests.ts crossSiteProblem; Next.js's own check lets a request
 * without an Origin through and answers a foreign one with a 500). And it
 * answers with a clear 4xx the requests Next.js would answer with a 500
 * (lib/site/request.ts decides which): an address whose %-escapes are not
 * UTF-8, and a page post that is too large, not a form, or not the arguments
 * a server action of this site takes. The address is normalised first (dot
 * segments resolved) and Next.js is handed the one the gate judged; no header
 * skips the origin check of a page post. The API's route handlers check the
 * origin and their bodies themselves (streamed, with their own limits). Each
 * request runs inside `pageRequest` (which also carries the peer address for
 * the rate limits), so an action that refuses its decoded arguments
 * (lib/forms/action.ts) has its 500 replaced by that refusal.
 *
 * Started by `node bin/site.mjs [-p PORT] [-H HOST] [--dev]` (scripts/demo.sh,
 * the browser tests, deploy/, `npm run dev`). The embedded worker (lib/site/worker.ts) owns
 * SIGTERM/SIGINT: it hands running chains back, then exits.
 */
import { createServer, IncomingMessage, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import next from "next";
import { env } from "@/env";
import { pageRequest, type PageRequest } from "@/lib/forms/action";
import { crossSiteProblem, siteOriginFromEnv } from "@/lib/http/requests";
import { HSTS_HEADER, SECURITY_HEADERS } from "@/lib/site/security-headers";
import { SITE_READY } from "@/lib/site/ready";
import { warmUp } from "@/lib/site/warm-up";
import { PAGE_BODY_LIMIT, addressProblem, declaredLengthProblem, isPagePost, normalAddress, pageBodyProblem, tooLarge } from "@/lib/site/request";

const webHeaders = (req: IncomingMessage) =>
  new Headers(Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [value].flat().map((v): [string, string] => [name, v]))));

/** The security headers Next.js adds to its own answers (next.config.ts), for the answers given here. */
const HEADERS = Object.fromEntries(SECURITY_HEADERS.map((h) => [h.key, h.value]));

function refuse(res: ServerResponse, refusal: { status: number; error: string }): void {
  const body = JSON.stringify({ error: refusal.error });
  res.writeHead(refusal.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    ...HEADERS,
  });
  res.end(body);
}

/**
 * A refused body is read to its end and dropped (so the client, still sending,
 * gets the answer) up to this many bytes; past them the connection is cut.
 */
const DRAIN_LIMIT = 16 * PAGE_BODY_LIMIT;

/** The body, read whole; null (and the request refused) past the limit. */
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DRAIN_LIMIT) {
      req.destroy();
      return null;
    }
    if (size <= PAGE_BODY_LIMIT) chunks.push(chunk);
  }
  if (size > PAGE_BODY_LIMIT) {
    refuse(res, tooLarge());
    return null;
  }
  return Buffer.concat(chunks);
}

/** A request Next.js can read again: the same head, with the body already read. */
function replayed(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.httpVersion = req.httpVersion;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  // read whole already; otherwise its end counts as an abort, which closes the connection
  copy.complete = true;
  copy.push(body);
  copy.push(null);
  return copy;
}

/** Once a server action has refused its arguments, whatever Next.js answers (a 500) becomes the refusal. */
function answerRefusalInstead(res: ServerResponse, store: PageRequest): void {
  const { writeHead, write, end } = res;
  let replaced = false;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse["writeHead"]>) {
    if (!store.refusal) return writeHead.apply(this, args);
    replaced = true;
    for (const name of this.getHeaderNames()) if (name !== HSTS_HEADER.key.toLowerCase()) this.removeHeader(name);
    return writeHead.call(this, store.refusal.status, {
      "content-type": "application/json",
      "cache-control": "no-store",
      ...HEADERS,
    });
  } as ServerResponse["writeHead"];
  // Node writes the head on the first write or end; writing it first here lets a refusal drop Next's body
  res.write = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.headersSent) this.writeHead(this.statusCode);
    return replaced ? true : (write as (...a: unknown[]) => boolean).apply(this, args);
  } as ServerResponse["write"];
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.headersSent) this.writeHead(this.statusCode);
    const ending = end as (...a: unknown[]) => ServerResponse;
    return replaced ? ending.call(this, JSON.stringify({ error: store.refusal!.error })) : ending.apply(this, args);
  } as ServerResponse["end"];
}

export async function startSite(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", short: "p", default: "3000" },
      hostname: { type: "string", short: "H", default: "0.0.0.0" },
      // `npm run dev`: Next.js compiles pages on demand, behind the same gate
      dev: { type: "boolean", default: false },
    },
  });
  const port = Number(values.port);
  const app = next({ dev: values.dev, hostname: values.hostname, port, dir: new URL(".", import.meta.url).pathname });
  const handle = app.getRequestHandler();
  await app.prepare();

  const hsts = env().CHAINSWE_HSTS;
  const server = createServer(async (req, res) => {
    // kept by every answer, Next.js's and the refusals here alike
    if (hsts) res.setHeader(HSTS_HEADER.key, HSTS_HEADER.value);
    const store: PageRequest = { refusal: addressProblem(req.url ?? "/"), peer: req.socket.remoteAddress ?? null };
    if (store.refusal) return refuse(res, store.refusal);
    // judged and served as one address: "/api/../teams" is the page /teams, gate included
    const url = (req.url = normalAddress(req.url ?? "/"));
    const serverAction = "next-action" in req.headers;
    if (isPagePost({ method: req.method, url, serverAction })) {
      const crossSite = crossSiteProblem(webHeaders(req), siteOriginFromEnv());
      if (crossSite) return refuse(res, { status: 403, error: crossSite });
      const declared = declaredLengthProblem(req.headers["content-length"]);
      if (declared) {
        // Node drops the unread body once the answer is sent; a huge one is not worth reading
        if (Number(req.headers["content-length"]) > DRAIN_LIMIT) res.setHeader("connection", "close");
        return refuse(res, declared);
      }
      const body = await readBody(req, res);
      if (!body) return;
      store.refusal = await pageBodyProblem({ contentType: req.headers["content-type"], serverAction }, body);
      if (store.refusal) return refuse(res, store.refusal);
      req = replayed(req, body);
      answerRefusalInstead(res, store);
    }
    try {
      await pageRequest.run(store, () => handle(req, res));
    } catch (e) {
      console.error(e);
      if (!res.headersSent) refuse(res, { status: 500, error: "internal error" });
    }
  });
  server.listen(port, values.hostname, async () => {
    // each page viewed once before the site says it is ready, so no visitor's request waits while a route's
    // code compiles (lib/site/warm-up.ts); `--dev` compiles pages on demand and is not warmed
    if (!values.dev) {
      const host = values.hostname === "0.0.0.0" || values.hostname === "::" ? "127.0.0.1" : values.hostname;
      const warmed = await warmUp(`http://${host.includes(":") ? `[${host}]` : host}:${port}`, (line) => process.stderr.write(`${line}\n`));
      process.stdout.write(`ChainSWE site: ${warmed.pages} pages warmed in ${(warmed.ms / 1000).toFixed(1)} s\n`);
    }
    process.stdout.write(`${SITE_READY} http://${values.hostname}:${port}\n`);
  });
}
