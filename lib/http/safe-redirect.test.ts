import { describe, expect, it } from "vitest";
import { authRedirect, callbackUrlProblem, sameSitePath } from "@/lib/http/safe-redirect";

describe("sameSitePath", () => {
  it.each(["/teams", "/submissions/abc?tab=logs#x", "/", "/a%2F%2Fb"])("keeps the same-site path %s", (p) => {
    expect(sameSitePath(p, "/teams")).toBe(p);
  });

  it.each([
    ["tab", "/\t/evil.example:3000/pwned"],
    ["newline", "/\n/evil.example/pwned"],
    ["carriage return", "/\r/evil.example"],
    ["protocol-relative", "//evil.example"],
    ["backslash", "/\\evil.example"],
    ["backslash after a tab", "/\t\\evil.example"],
    ["absolute", "https://evil.example/"],
    ["javascript", "javascript:alert(1)"],
    ["empty", ""],
    ["NUL", "/teams\u0000"],
  ])("refuses %s", (_name, p) => {
    expect(sameSitePath(p, "/teams")).toBe("/teams");
  });

  it("takes the first of repeated parameters and refuses non-strings", () => {
    expect(sameSitePath(["/account", "//evil"], "/teams")).toBe("/account");
    expect(sameSitePath(undefined, "/teams")).toBe("/teams");
    expect(sameSitePath(42, "/teams")).toBe("/teams");
  });
});

describe("authRedirect", () => {
  const base = "http://localhost:3000";
  it("keeps same-origin targets", () => {
    expect(authRedirect("/teams", base)).toBe("http://localhost:3000/teams");
    expect(authRedirect("http://localhost:3000/account", base)).toBe("http://localhost:3000/account");
  });
  it.each(["/\t/evil.example", "//evil.example", "https://evil.example/x", "http://localhost:3000\n.evil.example", "https://localhost:3000/"])(
    "sends %j home",
    (u) => {
      expect(new URL(authRedirect(u, base)).origin).toBe(base);
      expect(authRedirect(u, base)).not.toContain("evil");
    },
  );
});

describe("callbackUrlProblem", () => {
  it("names what next-auth cannot read as a callback URL (it would answer 500), and repeats", () => {
    const problem = "not a path on this site nor an http(s) URL";
    for (const bad of ["http://localhost:3000.evil.example/", "javascript:alert(1)", "//[", "not a url", "ftp://x.example/", ""]) {
      expect(callbackUrlProblem([bad]), bad).toBe(problem);
    }
    expect(callbackUrlProblem(["/teams", "/admin"])).toBe("given more than once");
  });

  it("lets through what next-auth reads (its redirect callback, authRedirect, then keeps it on the site)", () => {
    for (const ok of ["/teams", "/%09/evil.example", "http://localhost:3000/teams", "https://evil.example/"]) expect(callbackUrlProblem([ok]), ok).toBeNull();
    expect(callbackUrlProblem([])).toBeNull();
  });
});
