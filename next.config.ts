import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./lib/security-headers";

const nextConfig: NextConfig = {
  // a separate build dir per test run or checkout (tests build the site into their own)
  distDir: process.env.CHAINSWE_NEXT_DIST || ".next",
  // the evaluator talks to Docker through native modules; keep them out of the bundle
  serverExternalPackages: ["dockerode", "ssh2", "cpu-features", "pg", "bullmq", "ioredis"],
  // says nothing an attacker needs to know
  poweredByHeader: false,
  headers: async () => [{ source: "/:path*", headers: SECURITY_HEADERS }],
};

export default nextConfig;
