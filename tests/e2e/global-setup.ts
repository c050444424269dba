/**
 * Once per browser-test run: a production build, a fresh database holding the
 * demo benchmark really evaluated (the eight demo systems' Oracle and Seq
 * submissions, published, with their stored scores and chain-error analyses:
 * minutes of Docker replay, or a copy of the one scripts/test.sh made for this
 * run: lib/testing/demo-database.ts), and the site serving it with its own
 * worker. The specs reach it at E2E_BASE_URL and its database at
 * E2E_DATABASE_URL (set here, inherited by the test workers).
 */
import { rmSync } from "node:fs";
import { buildSite, evaluatedDemoDatabase, startSite, type Site } from "./site";

export const E2E_PORT = Number(process.env.CHAINSWE_E2E_PORT ?? 3210);

let site: Site | undefined;
let dir: string | undefined;

export default async function globalSetup(): Promise<() => Promise<void>> {
  buildSite();
  const db = evaluatedDemoDatabase("shared");
  dir = db.dir;
  site = await startSite({ dbUrl: db.url, port: E2E_PORT });
  process.env.E2E_BASE_URL = site.url;
  process.env.E2E_DATABASE_URL = db.url;
  return async () => {
    await site?.stop();
    if (process.env.CI !== "true" && process.env.CHAINSWE_E2E_KEEP !== "1" && dir) rmSync(dir, { recursive: true, force: true });
  };
}
