/**
 * The only reader of process.env. Parsed once; the CLI, worker and site share it.
 */
import { z } from "zod";

const int = (d: number) => z.coerce.number().int().positive().default(d);

export const envSchema = z.object({
  /** dockerode reads DOCKER_HOST itself; the engine's address in messages comes from here */
  DOCKER_HOST: z.string().optional(),
  /** the image the demo's per-repository images are derived from (scripts/build-base-image.sh builds it) */
  CHAINSWE_BASE_IMAGE: z.string().min(1).default("chainswe/python:bookworm"),
  CHAINSWE_MEMORY_MB: int(2048),
  CHAINSWE_CPUS: z.coerce.number().positive().default(1),
  CHAINSWE_PIDS: int(512),
  CHAINSWE_TEST_TIMEOUT_S: int(300),
  /** largest test log kept per run; larger output is treated as untrustworthy */
  CHAINSWE_MAX_LOG_MB: int(32),
  /** largest single file a process in an evaluation container may write (RLIMIT_FSIZE) */
  CHAINSWE_MAX_FILE_MB: int(1024),
  /**
   * bounds of a container's writable layer during a test run (bytes, and paths added or
   * changed); past either the run is stopped and the bug graded unresolved, like a timeout
   */
  CHAINSWE_MAX_DISK_MB: int(4096),
  CHAINSWE_MAX_DISK_FILES: int(100_000),
  CI: z.string().optional(),
  /**
   * A label (`chainswe.tag`) put on every container this process starts; child
   * processes inherit it. The Docker tests set one per test file to find their own
   * containers on an engine others use too.
   */
  CHAINSWE_SANDBOX_TAG: z.string().min(1).optional(),
  /**
   * The portal's database. SQLite by default (`file:` + a path; a relative path is
   * taken from the current directory, the project root for `npm run …`, the site
   * and the CLI).
   */
  DATABASE_URL: z.string().min(1).default("file:./data/chainswe.db"),
  /**
   * Signs the site's session cookies (next-auth reads it as NEXTAUTH_SECRET).
   * Required in production; `scripts/demo.sh` makes one per machine in data/.
   */
  NEXTAUTH_SECRET: z.string().min(16).optional(),
  /** the site's public URL, for OAuth callbacks and links the CLI prints */
  NEXTAUTH_URL: z.url().optional(),
  /**
   * "1" only when the site runs behind a reverse proxy that sets X-Forwarded-For,
   * -Host and -Proto itself: otherwise any client could send them.
   */
  CHAINSWE_TRUST_PROXY: z.enum(["0", "1"]).default("0").transform((v) => v === "1"),
  /** GitHub OAuth sign-in is offered when both are set */
  GITHUB_ID: z.string().min(1).optional(),
  GITHUB_SECRET: z.string().min(1).optional(),
  /** accounts that may be created per hour from one client address (the connection's, or X-Forwarded-For's behind a trusted proxy) */
  CHAINSWE_SIGNUPS_PER_HOUR: int(10),
  /**
   * answers per hour and client address that tell whether a username exists
   * without creating anything: sign-up's "taken", the invite form's "no user"
   */
  CHAINSWE_USERNAME_PROBES_PER_HOUR: int(20),
  /**
   * "1" when the site is served over https (directly or by its proxy): every
   * answer then carries Strict-Transport-Security, so browsers never use http again
   */
  CHAINSWE_HSTS: z.enum(["0", "1"]).default("0").transform((v) => v === "1"),
  /** submissions a team (and a user) may make per 24 hours, counted on arrival: cancelled, failed and deleted ones count too */
  CHAINSWE_DAILY_QUOTA: int(20),
  /** chains a user may propose per 24 hours (each is validated by n gold replays on the workers), counted on arrival */
  CHAINSWE_DAILY_PROPOSED_CHAINS: int(20),
  /** what a team's submissions (predictions, trajectories, test logs), and one user's uploads across their teams, may store */
  CHAINSWE_TEAM_STORAGE_MB: int(2048),
  /** days a cancelled submission's stored data is kept before the site deletes it (its audit rows stay) */
  CHAINSWE_CANCELLED_KEEP_DAYS: int(7),
  /** largest predictions upload, and largest single model patch */
  CHAINSWE_MAX_UPLOAD_MB: int(100),
  CHAINSWE_MAX_PATCH_KB: int(2048),
  /** what a submission's trajectories archive may unpack to (the archive itself counts against CHAINSWE_MAX_UPLOAD_MB) */
  CHAINSWE_MAX_TRAJECTORIES_MB: int(100),
  /** worker slots the site runs in its own process; 0 leaves evaluation to `chainswe worker` */
  CHAINSWE_SITE_WORKERS: z.coerce.number().int().nonnegative().default(1),
  /** `chainswe admin create` reads the new admin's password here unless given --password-stdin */
  CHAINSWE_ADMIN_PASSWORD: z.string().min(1).optional(),
  /** runs of a proposed chain's gold state in its validation; a listed test whose status changes between them is flaky (SPEC §8) */
  CHAINSWE_FLAKY_RUNS: int(3),
  /** how long a claimed chain stays leased without a heartbeat */
  CHAINSWE_LEASE_S: int(60),
  /**
   * Who replays chains: `embedded` (the default) — the site's own worker slots and
   * `chainswe worker` processes on the same database; `bullmq` — the site puts
   * chains on Redis (REDIS_URL) for `chainswe worker --redis` processes on any
   * machine (docs/DEPLOY.md).
   */
  CHAINSWE_QUEUE: z.enum(["embedded", "bullmq"]).default("embedded"),
  REDIS_URL: z.string().regex(/^redis:\/\//, "a redis:// URL").optional(),
  /** distributed workers: a chain's lock lasts this long without renewal before another worker takes it over */
  CHAINSWE_BULLMQ_LOCK_S: int(30),
  /** distributed mode: chains on Redis at once */
  CHAINSWE_DISPATCH_MAX: int(64),
  /**
   * "true" lets team webhooks reach loopback, private, link-local and other
   * special-purpose addresses and the machine's own, which are refused by
   * default (server-side request forgery, lib/notifications/address.ts): for
   * tests and deployments whose receivers sit on an intranet.
   */
  CHAINSWE_WEBHOOK_ALLOW_PRIVATE: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
  /** notifications are e-mailed to team members who gave an address when this is set (smtp://user:pass@host:port, or smtps://) */
  CHAINSWE_SMTP_URL: z.string().regex(/^smtps?:\/\//, "an smtp:// or smtps:// URL").optional(),
  /** the From of those e-mails, e.g. "ChainSWE <chainswe@example.org>"; needed with CHAINSWE_SMTP_URL */
  CHAINSWE_SMTP_FROM: z.string().min(3).optional(),
}).refine((e) => !e.CHAINSWE_SMTP_URL || e.CHAINSWE_SMTP_FROM, { path: ["CHAINSWE_SMTP_FROM"], message: "needed with CHAINSWE_SMTP_URL (the e-mails' From)" });

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
      throw new Error(`invalid environment:\n${lines.join("\n")}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/**
 * The Prisma CLI reads `env("DATABASE_URL")` from the schema itself and refuses to
 * run without it; prisma.config.ts calls this so the default applies there too.
 */
export function exportDatabaseUrl(): void {
  process.env.DATABASE_URL = env().DATABASE_URL;
}

/**
 * The environment a child process inherits (git, the Prisma CLI, an agent's
 * command), with `extra` on top: handed on whole, not read as settings.
 */
export function inheritedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}
