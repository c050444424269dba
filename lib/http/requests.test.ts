import { describe, expect, it } from "vitest";
import { FieldError, LimitError } from "@/core/errors";
import { crossSiteProblem, readBodyCapped, readJsonBody } from "@/lib/http/requests";

const h = (headers: Record<string, string>) => new Headers(headers);

describe("crossSiteProblem", () => {
  it("passes this site's Origin (or Referer)", () => {
    expect(crossSiteProblem(h({ host: "chainswe.example.org", origin: "https://chainswe.example.org" }), { origin: "https://chainswe.example.org/" })).toBeNull();
    expect(crossSiteProblem(h({ host: "chainswe.example.org", origin: "http://chainswe.example.org" }))).toBeNull();
    expect(crossSiteProblem(h({ host: "127.0.0.1:3330", referer: "http://127.0.0.1:3330/teams/acme" }))).toBeNull();
    // behind a reverse proxy the forwarded host is the site's
    const proxied = { host: "site:3000", "x-forwarded-host": "chainswe.example.org", "x-forwarded-proto": "https", origin: "https://chainswe.example.org" };
    expect(crossSiteProblem(h(proxied), { trustProxy: true })).toBeNull();
  });

  it("is not switched off by any header the client chooses: an Authorization header without this site's Origin is refused", () => {
    // callers that authenticate by token alone skip the check themselves (lib/auth/viewer.ts getActingViewer)
    expect(crossSiteProblem(h({ host: "chainswe.example.org", authorization: "Bearer csw_x" }))).toBe("cross-site request refused (no Origin header)");
    expect(crossSiteProblem(h({ host: "chainswe.example.org", authorization: "Basic eDp5", origin: "https://chainswe.example.org" }))).toMatch(/refused \(Origin https:/);
  });

  it("refuses another site, a missing Origin and Referer, and a malformed or opaque Origin", () => {
    expect(crossSiteProblem(h({ host: "chainswe.example.org", origin: "https://evil.example" }))).toBe("cross-site request refused (Origin https://evil.example)");
    expect(crossSiteProblem(h({ host: "chainswe.example.org", origin: "https://chainswe.example.org.evil.example" }))).toMatch(/refused/);
    expect(crossSiteProblem(h({ host: "chainswe.example.org:443", origin: "https://chainswe.example.org:8443" }))).toMatch(/refused/);
    expect(crossSiteProblem(h({ host: "chainswe.example.org", cookie: "next-auth.session-token=x" }))).toBe("cross-site request refused (no Origin header)");
    expect(crossSiteProblem(h({ host: "chainswe.example.org", origin: "null" }))).toBe("cross-site request refused (bad Origin header)");
    expect(crossSiteProblem(h({ host: "chainswe.example.org", referer: "not a url" }))).toMatch(/no Origin/);
    // the full origin, and forwarded headers only from a configured proxy
    expect(crossSiteProblem(h({ host: "chainswe.example.org", origin: "https://chainswe.example.org" }))).toMatch(/refused \(Origin https:/);
    expect(crossSiteProblem(h({ host: "chainswe.example.org", origin: "https://chainswe.example.org" }), { origin: "http://chainswe.example.org" })).toMatch(/refused/);
    expect(crossSiteProblem(h({ host: "site:3000", "x-forwarded-host": "evil.example", origin: "http://evil.example" }))).toMatch(/refused/);
    // the Origin wins over a same-site Referer
    expect(crossSiteProblem(h({ host: "a.example", origin: "https://evil.example", referer: "https://a.example/" }))).toMatch(/evil/);
  });
});

const post = (body: BodyInit | ReadableStream<Uint8Array> | null, headers: Record<string, string> = {}) =>
  new Request("http://x/", { method: "POST", body, headers, duplex: "half" } as RequestInit);

describe("readBodyCapped / readJsonBody", () => {
  it("reads a body up to the limit", async () => {
    expect(new TextDecoder().decode(await readBodyCapped(post("x".repeat(1024)), 1024))).toHaveLength(1024);
    expect(await readBodyCapped(post(null), 10)).toHaveLength(0);
  });

  it("refuses a declared length over the limit unread, and a streamed body once it crosses the limit", async () => {
    let pulled = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(c) {
          pulled++;
          c.enqueue(new Uint8Array(1024));
        },
      });
    await expect(readBodyCapped(post(endless(), { "content-length": "999999" }), 4096)).rejects.toMatchObject({ status: 413, field: "body" });
    const declaredPulls = pulled;
    expect(declaredPulls).toBeLessThanOrEqual(1); // at most the stream's own first fill
    const err = await readBodyCapped(post(endless()), 4096).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitError);
    expect(err).toMatchObject({ status: 413, message: "body: larger than the 4 KB limit" });
    expect(pulled - declaredPulls).toBeLessThan(10);
  });

  it("names the problem of an empty or malformed JSON body, with an example", async () => {
    const opts = { maxBytes: 100, example: '{"action": "withdraw"}' };
    expect(await readJsonBody(post('{"action":"withdraw"}'), opts)).toEqual({ action: "withdraw" });
    const empty = await readJsonBody(post(" "), opts).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(FieldError);
    expect(empty).toMatchObject({ field: "body", message: 'body: empty; send JSON such as {"action": "withdraw"}' });
    const bad = await readJsonBody(post("{action: withdraw}"), opts).catch((e: unknown) => e);
    expect(bad).toMatchObject({ field: "body", message: expect.stringMatching(/^body: malformed JSON \(.+\); send JSON such as/) });
    await expect(readJsonBody(post("[" + "1,".repeat(100) + "1]"), opts)).rejects.toBeInstanceOf(LimitError);
  });
});
