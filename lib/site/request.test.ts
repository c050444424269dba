/**
 * The request gate's decisions (server.ts acts on them): which addresses and
 * page posts are refused before Next.js sees them, with which status.
 */
import { describe, expect, it } from "vitest";
import { PAGE_BODY_LIMIT, addressProblem, declaredLengthProblem, isPagePost, normalAddress, pageBodyProblem } from "@/lib/site/request";

const BOUNDARY = "b0undary";
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart body with these fields, as React sends a server action's arguments. */
function multipart(fields: Record<string, string>): Uint8Array {
  const parts = Object.entries(fields).map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return new TextEncoder().encode(`${parts.join("")}--${BOUNDARY}--\r\n`);
}

const action = (args: unknown[], fields: Record<string, string> = { "1_username": "ann" }) =>
  pageBodyProblem({ contentType: MULTIPART, serverAction: true }, multipart({ ...fields, "0": JSON.stringify(args) }));

describe("addressProblem", () => {
  it("refuses a path whose %-escapes are not UTF-8, with 400", () => {
    for (const url of ["/submissions/%ff", "/api/v1/submissions/%ff%fe", "/teams/%c0%af", "/%e2%82", "/x/%zz"]) {
      expect(addressProblem(url), url).toEqual({ status: 400, error: "the address has a %-escape that is not UTF-8" });
    }
  });

  it("lets valid paths through, and leaves the query to the page (URLSearchParams replaces bad bytes)", () => {
    for (const url of ["/", "/teams/acme-labs", "/dataset/v1/chains/caf%C3%A9", "/dataset?q=%ff", "/a%20b#%ff"]) expect(addressProblem(url), url).toBeNull();
  });
});

describe("normalAddress", () => {
  it("resolves dot segments and backslashes as Next.js routes them, so /api/../teams is judged as the page it reaches", () => {
    for (const [raw, normal] of [
      ["/api/../teams", "/teams"],
      ["/_next/../teams?x=1", "/teams?x=1"],
      ["/api/%2e%2e/signup", "/signup"],
      ["/api/%2E%2e/signup", "/signup"],
      ["/api\\..\\teams", "/teams"],
      ["/_next/./../api/../teams/./acme", "/teams/acme"],
    ]) {
      expect(normalAddress(raw!), raw).toBe(normal);
      expect(isPagePost({ method: "POST", url: normalAddress(raw!), serverAction: false }), raw).toBe(true);
    }
  });

  it("leaves a normal address as it is, query included, and never turns a path into another host", () => {
    for (const url of ["/", "/teams/acme-labs", "/dataset?q=%ff&x=a/../b", "/api/v1/submissions", "//evil.example/x"]) expect(normalAddress(url), url).toBe(url);
  });

  it("refuses raw bytes outside printable ASCII in the address (browsers %-escape them)", () => {
    expect(addressProblem("/teams/caf\u00c3\u00a9")).toEqual({ status: 400, error: "the address has characters that must be %-escaped" });
    expect(addressProblem("/api/..\u0000/teams")).toEqual({ status: 400, error: "the address has characters that must be %-escaped" });
  });
});

describe("isPagePost and declaredLengthProblem", () => {
  it("gates posts to pages, not the API (its handlers stream and check their own bodies) nor reads", () => {
    expect(isPagePost({ method: "POST", url: "/teams", serverAction: false })).toBe(true);
    expect(isPagePost({ method: "PUT", url: "/signup", serverAction: false })).toBe(true);
    expect(isPagePost({ method: "POST", url: "/api/v1/submissions", serverAction: false })).toBe(false);
    expect(isPagePost({ method: "POST", url: "/_next/data/x", serverAction: false })).toBe(false);
    expect(isPagePost({ method: "GET", url: "/teams", serverAction: false })).toBe(false);
    expect(isPagePost({ method: "HEAD", url: "/teams", serverAction: false })).toBe(false);
  });

  it("gates every request that names a server action, whatever its address or method", () => {
    for (const url of ["/api/v1/submissions", "/_next/data/x", "/_next/static/x.js", "/teams"]) {
      for (const method of ["POST", "PUT", "GET", "HEAD", "OPTIONS"]) expect(isPagePost({ method, url, serverAction: true }), `${method} ${url}`).toBe(true);
    }
  });

  it("refuses a declared length over the limit with 413 before reading", () => {
    expect(declaredLengthProblem(String(3 * 1024 * 1024))).toEqual({ status: 413, error: "the form is larger than the 1 MB limit" });
    expect(declaredLengthProblem(String(PAGE_BODY_LIMIT))).toBeNull();
    expect(declaredLengthProblem(undefined)).toBeNull();
  });
});

describe("pageBodyProblem", () => {
  it("lets through what the site's forms send: [bound strings…, state, form] or [form]", async () => {
    expect(await action([{ status: "idle" }, "$K1"])).toBeNull();
    expect(await action(["acme-labs", "cuid123", { status: "idle" }, "$K1"])).toBeNull();
    expect(await action(["c1", null, "$K1"])).toBeNull();
    expect(await action(["$K1"])).toBeNull();
    expect(await action(["$$dollar-id", { status: "idle" }, "$K1"])).toBeNull();
    // a form posted without JavaScript (no next-action header)
    expect(await pageBodyProblem({ contentType: "application/x-www-form-urlencoded", serverAction: false }, new TextEncoder().encode("a=b"))).toBeNull();
  });

  it("refuses what is not a form, or does not parse as one, with 400 naming why", async () => {
    const text = (body: string, contentType?: string, serverAction = true) => pageBodyProblem({ contentType, serverAction }, new TextEncoder().encode(body));
    expect(await text("not json", "text/plain;charset=UTF-8")).toEqual({ status: 400, error: "malformed form submission: expected a form (multipart/form-data or application/x-www-form-urlencoded), got text/plain" });
    expect((await text("[1", "application/json"))?.status).toBe(400);
    expect((await text("zz", undefined, false))?.error).toMatch(/got no content type/);
    expect(await text("garbage", MULTIPART)).toEqual({ status: 400, error: "malformed form submission: the body is not valid multipart/form-data" });
    expect((await text("garbage", "multipart/form-data"))?.error).toBe("malformed form submission: the body is not valid multipart/form-data");
    expect((await text("a=b", "application/x-www-form-urlencoded"))?.error).toBe("malformed form submission: a server action's arguments come as multipart/form-data");
  });

  it("refuses server-action arguments this site's actions never take", async () => {
    const why = async (args: unknown, fields?: Record<string, string>) =>
      (await pageBodyProblem({ contentType: MULTIPART, serverAction: true }, multipart({ ...fields, "0": typeof args === "string" ? args : JSON.stringify(args) })))?.error;
    expect(await pageBodyProblem({ contentType: MULTIPART, serverAction: true }, multipart({ x: "1" }))).toEqual({
      status: 400,
      error: 'malformed form submission: no argument list (field "0")',
    });
    expect(await why("not json")).toBe("malformed form submission: the argument list is not JSON");
    expect(await why({ a: 1 })).toBe("malformed form submission: the argument list is not a list");
    expect(await why([])).toBe("malformed form submission: the argument list is not a list");
    expect(await why([{ status: "idle" }, "ann"])).toBe("malformed form submission: the last argument is not the form");
    expect(await why([{ status: "idle" }, "$@1"])).toBe("malformed form submission: the last argument is not the form");
    expect(await why([{}, { status: "idle" }, "$K1"])).toBe("malformed form submission: a bound argument is not a string");
    expect(await why([7, "$K1"])).toBe("malformed form submission: a bound argument is not a string");
    expect(await why(["$Q2", { status: "idle" }, "$K1"])).toBe("malformed form submission: a bound argument is not a string");
  });
});
