import { describe, expect, it } from "vitest";
import { IPV4_SPECIAL, IPV6_SPECIAL, addressProblem, webhookHostProblem, webhookUrlSchema } from "./address";

describe("addressProblem", () => {
  it.each(["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255"])(
    "refuses IPv4 %s",
    (a) => expect(addressProblem(a)).not.toBeNull(),
  );
  it.each(["::1", "::", "fe80::1", "fd00::1", "fc00::2", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:a00:1", "[::1]", "fe80::1%eth0"])(
    "refuses IPv6 %s",
    (a) => expect(addressProblem(a)).not.toBeNull(),
  );
  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8", "2a00:1450:4001:80b::200e"])("allows public %s", (a) =>
    expect(addressProblem(a)).toBeNull(),
  );
  it("counts what is not an address as refused", () => expect(addressProblem("example.org")).toMatch(/not an IP address/));

  // every range of the IANA special-purpose registries, at its first and last address
  const v4Ends = (prefix: string) => {
    const [net, bits] = prefix.split("/");
    const n = net!.split(".").reduce((acc, b) => acc * 256 + Number(b), 0);
    const last = n + 2 ** (32 - Number(bits)) - 1;
    const text = (x: number) => [24, 16, 8, 0].map((s) => Math.floor(x / 2 ** s) % 256).join(".");
    return [text(n), text(last)];
  };
  it.each(IPV4_SPECIAL.map(([prefix]) => prefix))("refuses all of the IPv4 registry's %s", (prefix) => {
    for (const a of v4Ends(prefix)) expect(addressProblem(a), a).not.toBeNull();
  });
  it.each(IPV6_SPECIAL.map(([prefix]) => prefix))("refuses the IPv6 registry's %s", (prefix) => {
    expect(addressProblem(prefix.split("/")[0]!), prefix).not.toBeNull();
  });

  it.each([
    ["192.0.2.2", "documentation"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["192.88.99.1", "6to4 relay"],
    ["192.31.196.1", "AS112"],
    ["64:ff9b::7f00:1", "NAT64"],
    ["64:ff9b::127.0.0.1", "carrying 127.0.0.1"],
    ["64:ff9b::8.8.8.8", "NAT64"],
    ["64:ff9b:1::a00:1", "NAT64 local-use"],
    ["2002:7f00:1::", "6to4"],
    ["2002:a9fe:a9fe::1", "carrying 169.254.169.254"],
    ["2002:808:808::1", "6to4"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["::7f00:1", "IPv4-compatible"],
    ["::127.0.0.1", "carrying 127.0.0.1"],
    ["::8.8.8.8", "IPv4-compatible"],
    ["::ffff:0:7f00:1", "global unicast"],
    ["2001:db8::1", "documentation"],
    ["3fff::1", "documentation"],
    ["2001:2::1", "benchmarking"],
    ["2001:20::1", "ORCHIDv2"],
    ["100::1", "discard-only"],
    ["fec0::1", "global unicast"],
    ["5f00::1", "SRv6"],
    ["198.19.0.1", "benchmarking"],
  ])("refuses %s (%s)", (a, why) => expect(addressProblem(a)).toContain(why));

  it("refuses the machine's own addresses, in any spelling", () => {
    const own = ["93.184.215.14", "2606:4700:10::6816:1"];
    expect(addressProblem("93.184.215.14", own)).toMatch(/address of this machine/);
    expect(addressProblem("::ffff:93.184.215.14", own)).toMatch(/address of this machine/);
    expect(addressProblem("2606:4700:10:0:0:0:6816:1", own)).toMatch(/address of this machine/);
    expect(addressProblem("93.184.215.15", own)).toBeNull();
  });
});

describe("webhookHostProblem", () => {
  it("refuses localhost, with or without the root's dot, and refused literals, unless allowed", () => {
    for (const url of ["http://localhost:8080/x", "http://api.localhost/x", "http://localhost.:3000/x", "http://LOCALHOST../x", "http://a.b.localhost./x"]) {
      expect(webhookHostProblem(url, false), url).toMatch(/this machine/);
    }
    expect(webhookHostProblem("http://127.0.0.1:9/x", false)).toMatch(/loopback/);
    expect(webhookHostProblem("http://0x7f.1:9/x", false)).toMatch(/loopback/);
    expect(webhookHostProblem("http://[::1]:9/x", false)).toMatch(/loopback/);
    expect(webhookHostProblem("http://[::7f00:1]:9/x", false)).toMatch(/IPv4-compatible/);
    expect(webhookHostProblem("http://[64:ff9b::a9fe:a9fe]/x", false)).toMatch(/NAT64/);
    expect(webhookHostProblem("http://[2002:7f00:1::]/x", false)).toMatch(/6to4/);
    expect(webhookHostProblem("http://192.0.2.2:3000/api/v1/dataset", false)).toMatch(/documentation/);
    expect(webhookHostProblem("http://93.184.215.14:3000/x", false, ["93.184.215.14"])).toMatch(/this machine/);
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
