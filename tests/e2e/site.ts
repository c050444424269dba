/**
 * The browser tests' harness: the real site (`next start` on a production
 * build in its own directory), on a real SQLite file, with its embedded worker
 * replaying chains in real Docker containers. A test that needs to kill and
 * restart the server starts its own site on its own database.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SITE_READY } from "@/lib/site/ready";
import { waitFor } from "@/lib/testing/wait";
import { ROOT } from "@/lib/testing/demo-database";
export { DEMO_VERSION, ROOT, chainswe, evaluatedDemoDatabase, freshDatabase } from "@/lib/testing/demo-database";
/** the build the browser tests serve (CHAINSWE_E2E_DIST lets two checkouts or engineers test side by side) */
export const DIST = process.env.CHAINSWE_E2E_DIST ?? ".next-e2e";
export const SECRET = "e2e-secret-e2e-secret-e2e-secret";
const NEXT = join(ROOT, "node_modules", "next", "dist", "bin", "next");
/** the site's server (server.ts): Next.js behind the request gate */
const SITE = join(ROOT, "bin", "site.mjs");

/** The production build the tests serve; rebuilt unless CHAINSWE_E2E_REUSE_BUILD=1 and one exists. */
export function buildSite(): void {
  if (process.env.CHAINSWE_E2E_REUSE_BUILD === "1" && existsSync(join(ROOT, DIST, "BUILD_ID"))) return;
  execFileSync(process.execPath, [NEXT, "build"], {
    cwd: ROOT,
    env: { ...process.env, CHAINSWE_NEXT_DIST: DIST, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
}

export type Site = {
  url: string;
  child: ChildProcess;
  /** everything the server printed so far */
  output: () => string;
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

export async function startSite(opts: { dbUrl: string; port: number; env?: Record<string, string> }): Promise<Site> {
  const url = `http://127.0.0.1:${opts.port}`;
  const child = spawn(process.execPath, [SITE, "-p", String(opts.port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CHAINSWE_NEXT_DIST: DIST,
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: opts.dbUrl,
      NEXTAUTH_SECRET: SECRET,
      NEXTAUTH_URL: url,
      CHAINSWE_SITE_WORKERS: "1",
      CHAINSWE_LEASE_S: "6",
      // the tests stand in for a trusted proxy: signin-limit gives each test client an address of its
      // own through X-Forwarded-For (the origin check still compares with NEXTAUTH_URL)
      CHAINSWE_TRUST_PROXY: "1",
      // the suite signs up dozens of users from 127.0.0.1; signin-limit checks the limit from an address of its own
      CHAINSWE_SIGNUPS_PER_HOUR: "200",
      CHAINSWE_USERNAME_PROBES_PER_HOUR: "200",
      // the notification spec's webhook receiver listens on 127.0.0.1, refused by default
      CHAINSWE_WEBHOOK_ALLOW_PRIVATE: "true",
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout!.on("data", (c: Buffer) => (text += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  // a production server starts in seconds; minutes on a machine busy with the other tests
  try {
    await waitFor(
      `the site to answer on ${url}`,
      async () => {
        if (child.exitCode !== null) throw new Error(`the site exited (${child.exitCode})`);
        // warmed and ready (lib/site/warm-up.ts): the tests' first views are no site's first
        return text.includes(SITE_READY);
      },
      { timeoutMs: 180_000, everyMs: 250 },
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}:\n${text}`);
  }
  return {
    url,
    child,
    output: () => text,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}
