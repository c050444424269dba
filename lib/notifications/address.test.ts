import { describe, expect, it } from "vitest";
import { isPrivateAddress, webhookHostProblem, webhookUrlSchema } from "./address";

describe("isPrivateAddress", () => {
  it.each(["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255"])(
    "refuses IPv4 %s",
    (a) => expect(isPrivateAddress(a)).toBe(true),
  );
  it.each(["::1", "::", "fe80::1", "fd00::1", "fc00::2", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:a00:1", "[::1]", "fe80::1%eth0"])(
    "refuses IPv6 %s",
    (a) => expect(isPrivateAddress(a)).toBe(true),
  );
  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])("allows public %s", (a) =>
    expect(isPrivateAddress(a)).toBe(false),
  );
  it("counts what is not an address as private", () => expect(isPrivateAddress("example.org")).toBe(true));
});

describe("webhookHostProblem", () => {
  it("refuses localhost and private literals unless allowed", () => {
    expect(webhookHostProblem("http://localhost:8080/x", false)).toMatch(/localhost/);
    expect(webhookHostProblem("http://api.localhost/x", false)).toMatch(/localhost/);
    expect(webhookHostProblem("http://127.0.0.1:9/x", false)).toMatch(/private/);
    expect(webhookHostProblem("http://[::1]:9/x", false)).toMatch(/private/);
    expect(webhookHostProblem("http://127.0.0.1:9/x", true)).toBeNull();
  });
  it("leaves names to the check at sending time", () => expect(webhookHostProblem("https://hooks.example.org/chainswe", false)).toBeNull());
});

describe("webhookUrlSchema", () => {
  it("takes http and https URLs only, without credentials", () => {
    expect(webhookUrlSchema.parse(" https://hooks.example.org/x ")).toBe("https://hooks.example.org/x");
    expect(webhookUrlSchema.safeParse("http://hooks.example.org").success).toBe(true);
    for (const bad of ["ftp://example.org/x", "file:///etc/passwd", "javascript:alert(1)", "not a url", "https://u:p@example.org/x", `https://example.org/${"a".repeat(2001)}`]) {
      expect(webhookUrlSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});
