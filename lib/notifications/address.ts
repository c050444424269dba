/**
 * Which webhook addresses the site refuses to call (server-side request
 * forgery): a team's URL must not reach the site's own machine or its private
 * network. Checked on the URL when it is saved and on every address its host
 * resolves to when it is called (lib/notifications/post.ts), so a name that
 * later resolves inward is refused too. Pure.
 */
import { BlockList, isIP } from "node:net";
import { z } from "zod";

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  PRIVATE.addSubnet(net, prefix, "ipv6");
}

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1, or its hex form) is judged as the IPv4 address. */
function mappedIpv4(address: string): string | null {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for loopback, private, link-local, multicast and reserved addresses; an unparsable address counts as private. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const v4 = mappedIpv4(bare);
  if (v4) return PRIVATE.check(v4, "ipv4");
  const family = isIP(bare);
  if (family === 4) return PRIVATE.check(bare, "ipv4");
  if (family === 6) return PRIVATE.check(bare, "ipv6");
  return true;
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
 * Why the URL's host is refused before any lookup, or null: `localhost` and IP
 * literals in private ranges, unless private addresses are allowed (tests,
 * an intranet deployment).
 */
export function webhookHostProblem(url: string, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const host = new URL(url).hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return "points at this machine (localhost)";
  if (isIP(host.replace(/^\[|\]$/g, "")) && isPrivateAddress(host)) return `${host} is a private, loopback or link-local address`;
  return null;
}
