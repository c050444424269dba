import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // the evaluator talks to Docker through native modules; keep them out of the bundle
  serverExternalPackages: ["dockerode", "ssh2", "cpu-features"],
};

export default nextConfig;
