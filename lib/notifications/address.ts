/**
 * Which webhook addresses the site refuses to call (server-side request
 * forgery): a team's URL must not reach the site's own machine, its private
 * network, or any address IANA sets aside for a special purpose. Checked on
 * the URL when it is saved and on every address its host resolves to when it
 * is called (lib/notifications/post.ts, which then connects to exactly the
 * addresses checked). Pure: the machine's own addresses are passed in.
 *
 * The ranges are the IANA IPv4 and IPv6 Special-Purpose Address Registries,
 * whole (an entry marked globally reachable is refused too: no receiver needs
 * one), plus IPv4 multicast; an IPv6 address must also be global unicast
 * (2000::/3). IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as its IPv4
 * address; every other IPv6 form that carries an IPv4 address (NAT64, 6to4,
 * Teredo, IPv4-compatible) is refused whatever it carries, since a gateway
 * would turn it into that address.
 */
import { isIP } from "node:net";
import { z } from "zod";

type Registry = readonly (readonly [prefix: string, name: string])[];

/** iana.org/assignments/iana-ipv4-special-registry, and multicast from the IPv4 address space registry. */
export const IPV4_SPECIAL: Registry = [
  ["0.0.0.0/8", '"this network" (RFC 791)'],
  ["0.0.0.0/32", '"this host on this network" (RFC 1122)'],
  ["10.0.0.0/8", "private use (RFC 1918)"],
  ["100.64.0.0/10", "shared address space, carrier-grade NAT (RFC 6598)"],
  ["127.0.0.0/8", "loopback (RFC 1122)"],
  ["169.254.0.0/16", "link-local, cloud metadata (RFC 3927)"],
  ["172.16.0.0/12", "private use (RFC 1918)"],
  ["192.0.0.0/24", "IETF protocol assignments (RFC 6890)"],
  ["192.0.0.0/29", "IPv4 service continuity prefix (RFC 7335)"],
  ["192.0.0.8/32", "IPv4 dummy address (RFC 7600)"],
  ["192.0.0.9/32", "Port Control Protocol anycast (RFC 7723)"],
  ["192.0.0.10/32", "TURN anycast (RFC 8155)"],
  ["192.0.0.170/32", "NAT64/DNS64 discovery (RFC 8880)"],
  ["192.0.0.171/32", "NAT64/DNS64 discovery (RFC 8880)"],
  ["192.0.2.0/24", "documentation, TEST-NET-1 (RFC 5737)"],
  ["192.31.196.0/24", "AS112-v4 (RFC 7535)"],
  ["192.52.193.0/24", "AMT (RFC 7450)"],
  ["192.88.99.0/24", "deprecated 6to4 relay anycast (RFC 7526)"],
  ["192.88.99.2/32", "6a44 relay anycast (RFC 6751)"],
  ["192.168.0.0/16", "private use (RFC 1918)"],
  ["192.175.48.0/24", "AS112 direct delegation (RFC 7534)"],
  ["198.18.0.0/15", "benchmarking (RFC 2544)"],
  ["198.51.100.0/24", "documentation, TEST-NET-2 (RFC 5737)"],
  ["203.0.113.0/24", "documentation, TEST-NET-3 (RFC 5737)"],
  ["224.0.0.0/4", "multicast (RFC 5771)"],
  ["240.0.0.0/4", "reserved (RFC 1112)"],
  ["255.255.255.255/32", "limited broadcast (RFC 919)"],
];

/** iana.org/assignments/iana-ipv6-special-registry (less ::ffff:0:0/96, judged by its IPv4 address), and what lies outside global unicast. */
export const IPV6_SPECIAL: Registry = [
  ["::/128", "unspecified (RFC 4291)"],
  ["::1/128", "loopback (RFC 4291)"],
  ["::/96", "IPv4-compatible, deprecated (RFC 4291)"],
  ["64:ff9b::/96", "NAT64 well-known prefix (RFC 6052)"],
  ["64:ff9b:1::/48", "NAT64 local-use prefix (RFC 8215)"],
  ["100::/64", "discard-only (RFC 6666)"],
  ["100:0:0:1::/64", "dummy IPv6 prefix (RFC 9780)"],
  ["2001::/23", "IETF protocol assignments (RFC 2928)"],
  ["2001::/32", "Teredo (RFC 4380)"],
  ["2001:1::1/128", "Port Control Protocol anycast (RFC 7723)"],
  ["2001:1::2/128", "TURN anycast (RFC 8155)"],
  ["2001:1::3/128", "DNS-SD service registration anycast (RFC 9665)"],
  ["2001:2::/48", "benchmarking (RFC 5180)"],
  ["2001:3::/32", "AMT (RFC 7450)"],
  ["2001:4:112::/48", "AS112-v6 (RFC 7535)"],
  ["2001:10::/28", "deprecated ORCHID (RFC 4843)"],
  ["2001:20::/28", "ORCHIDv2 (RFC 7343)"],
  ["2001:30::/28", "drone remote ID tags (RFC 9374)"],
  ["2001:db8::/32", "documentation (RFC 3849)"],
  ["2002::/16", "6to4 (RFC 3056)"],
  ["2620:4f:8000::/48", "AS112 direct delegation (RFC 7534)"],
  ["3fff::/20", "documentation (RFC 9637)"],
  ["5f00::/16", "SRv6 SIDs (RFC 9602)"],
  ["fc00::/7", "unique local (RFC 4193)"],
  ["fe80::/10", "link-local (RFC 4291)"],
  ["ff00::/8", "multicast (RFC 4291)"],
];

type Bytes = readonly number[];
type Range = { bytes: Bytes; bits: number; name: string; prefix: string };

function ipv4Bytes(text: string): Bytes | null {
  return isIP(text) === 4 ? text.split(".").map(Number) : null;
}

function ipv6Bytes(text: string): Bytes | null {
  if (isIP(text) !== 6) return null;
  // a trailing dotted quad is two groups
  const hex = text.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const [head, tail] = hex.split("::");
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const h = groups(head);
  const t = groups(tail);
  const all = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

function ranges(registry: Registry, parse: (text: string) => Bytes | null): Range[] {
  return registry.map(([prefix, name]) => {
    const [net, bits] = prefix.split("/");
    return { bytes: parse(net!)!, bits: Number(bits), name, prefix };
  });
}

const V4 = ranges(IPV4_SPECIAL, ipv4Bytes);
const V6 = ranges(IPV6_SPECIAL, ipv6Bytes);
const GLOBAL_UNICAST: Range = { bytes: ipv6Bytes("2000::")!, bits: 3, name: "global unicast", prefix: "2000::/3" };

function inRange(address: Bytes, range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const take = Math.min(8, range.bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((address[bit / 8]! ^ range.bytes[bit / 8]!) & mask) !== 0) return false;
  }
  return true;
}

/** The most specific range holding the address, so the reason names the narrowest purpose. */
const narrowest = (address: Bytes, table: Range[]): Range | undefined =>
  table.filter((r) => inRange(address, r)).sort((a, b) => b.bits - a.bits)[0];

const dotted = (b: Bytes, at: number) => b.slice(at, at + 4).join(".");

/** An address in a comparable form: IPv4 as 4 bytes, IPv6 as 16, an IPv4-mapped IPv6 address as its IPv4 bytes; null when it is not an address. */
function parseAddress(text: string): Bytes | null {
  const bare = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4 = ipv4Bytes(bare);
  if (v4) return v4;
  const v6 = ipv6Bytes(bare);
  if (!v6) return null;
  const mapped = v6.slice(0, 10).every((b) => b === 0) && v6[10] === 0xff && v6[11] === 0xff;
  return mapped ? v6.slice(12) : v6;
}

/** The IPv4 address an IPv6 one carries where a gateway or tunnel would reach it, for the reason's sake. */
function carried(v6: Bytes, range: Range): string | null {
  if (range.prefix === "64:ff9b::/96" || range.prefix === "::/96") return dotted(v6, 12);
  if (range.prefix === "2002::/16") return dotted(v6, 2);
  return null;
}

/**
 * Why the site refuses to connect to `address`, or null: it is one of
 * `ownAddresses` (the machine's interfaces), in a special-purpose range, or
 * not an address at all.
 */
export function addressProblem(address: string, ownAddresses: readonly string[] = []): string | null {
  const bytes = parseAddress(address);
  if (!bytes) return `${address} is not an IP address`;
  const key = bytes.join(".");
  const own = ownAddresses.some((o) => parseAddress(o)?.join(".") === key) ? `${address} is an address of this machine` : null;
  if (bytes.length === 4) {
    const range = narrowest(bytes, V4);
    return range ? `${address} is in ${range.prefix}, ${range.name}` : own;
  }
  const range = narrowest(bytes, V6);
  if (range) {
    const v4 = carried(bytes, range);
    return `${address} is in ${range.prefix}, ${range.name}${v4 ? `, carrying ${v4}` : ""}`;
  }
  return inRange(bytes, GLOBAL_UNICAST) ? own : `${address} is not a global unicast address (2000::/3)`;
}

/** The form's and the API's webhook URL: http or https, no credentials in it. */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000, "at most 2000 characters")
  .pipe(z.url({ protocol: /^https?$/, error: "an http:// or https:// URL" }))
  .refine((u) => {
    // zod runs this even after the URL check failed: that failure is reported already
    if (!URL.canParse(u)) return true;
    const url = new URL(u);
    return !url.username && !url.password;
  }, "no user name or password in the URL: the signature proves who sends");

/**
 * Why the URL's host is refused before any lookup, or null: `localhost` and
 * its subdomains (with or without the root's trailing dot), and IP literals
 * that addressProblem refuses, unless private addresses are allowed (tests,
 * an intranet deployment). A name is left to the check of what it resolves to.
 */
export function webhookHostProblem(url: string, allowPrivate: boolean, ownAddresses: readonly string[] = []): string | null {
  if (allowPrivate) return null;
  const host = new URL(url).hostname.toLowerCase();
  const name = host.replace(/\.+$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return `${host} is this machine`;
  const literal = host.replace(/^\[|\]$/g, "");
  if (isIP(literal)) return addressProblem(literal, ownAddresses);
  return null;
}
