import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // a separate build dir per test run or checkout (tests build the site into their own)
  distDir: process.env.CHAINSWE_NEXT_DIST || ".next",
  // the evaluator talks to Docker through native modules; keep them out of the bundle
  serverExternalPackages: ["dockerode", "ssh2", "cpu-features", "pg", "bullmq", "ioredis"],
};

export default nextConfig;
