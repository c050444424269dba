import type { NextConfig } from "next";
import { PHASE_DEVELOPMENT_SERVER } from "next/constants";
import { SECURITY_HEADERS } from "./lib/site/security-headers";

const nextConfig = (phase: string): NextConfig => ({
  // a separate build dir per test run or checkout (tests build the site into their own)
  distDir: process.env.CHAINSWE_NEXT_DIST || ".next",
  // the evaluator talks to Docker through native modules; keep them out of the bundle
  serverExternalPackages: ["dockerode", "ssh2", "cpu-features", "pg", "bullmq", "ioredis"],
  // says nothing an attacker needs to know
  poweredByHeader: false,
  headers: async () => [{ source: "/:path*", headers: SECURITY_HEADERS }],
  // source maps in development only: the production server runs with Node's source maps on (tsx turns them on),
  // and a route's first view read its chunks' maps, megabytes of them, on the answering thread (docs/BENCHMARKS.md)
  experimental: { turbopackSourceMaps: phase === PHASE_DEVELOPMENT_SERVER },
});

export default nextConfig;
