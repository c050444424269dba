/**
 * `chainswe admin create|grant|revoke` as a user runs them, on a migrated SQLite
 * file in a temp dir: through main() in this process (cli/in-process.ts), and
 * once through the real bin/chainswe.mjs in a child process, to prove that the
 * password on standard input, the output and the exit code cross a real process.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainsweWith } from "./in-process";

const ROOT = new URL("../", import.meta.url).pathname;
const BIN = join(ROOT, "bin", "chainswe.mjs");

let dir: string;

type Opts = { input?: string; env?: Record<string, string>; database?: string };

/** The environment of a case: its database in the temp dir, no admin password unless given. */
const caseEnv = (opts: Opts) => ({ DATABASE_URL: `file:./${opts.database ?? "cli.db"}`, CHAINSWE_ADMIN_PASSWORD: undefined, ...opts.env });

/** `chainswe …args` from the temp dir, so the relative DATABASE_URL lands there: in this process. */
function chainswe(args: string[], opts: Opts = {}) {
  return chainsweWith({ cwd: dir, env: caseEnv(opts), input: opts.input }, ...args);
}

/** The same through the real bin/chainswe.mjs, in a child process. */
function chainsweBin(args: string[], opts: Opts = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, ...caseEnv(opts) };
  if (!opts.env?.CHAINSWE_ADMIN_PASSWORD) delete env.CHAINSWE_ADMIN_PASSWORD;
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, env, input: opts.input ?? "", encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

type UserRow = { username: string; name: string; email: string | null; isReviewer: number; isSiteAdmin: number; passwordHash: string };

function user(username: string): UserRow | undefined {
  const db = new Database(join(dir, "cli.db"), { readonly: true });
  try {
    return db.prepare(`SELECT username, name, email, isReviewer, isSiteAdmin, passwordHash FROM User WHERE username = ?`).get(username) as UserRow | undefined;
  } finally {
    db.close();
  }
}

function audit(): { actorId: string | null; action: string; reason: string }[] {
  const db = new Database(join(dir, "cli.db"), { readonly: true });
  try {
    return db.prepare(`SELECT actorId, action, reason FROM AuditLog ORDER BY createdAt, rowid`).all() as never;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-cli-admin-"));
  const migrated = await chainswe(["db", "migrate"]);
  expect(migrated.code).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("chainswe admin create", () => {
  it("creates a site admin and reviewer with the password from standard input (the real binary)", () => {
    const run = chainsweBin(["admin", "create", "root", "--password-stdin", "--name", "Site Root", "--email", "root@example.org"], { input: "a long enough password\n" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("created root, site admin and reviewer\n");
    expect(run.code).toBe(0);
    expect(user("root")).toMatchObject({ name: "Site Root", email: "root@example.org", isReviewer: 1, isSiteAdmin: 1 });
    expect(user("root")!.passwordHash).toMatch(/^scrypt\$/);
  });

  it("takes the password from CHAINSWE_ADMIN_PASSWORD", async () => {
    const run = await chainswe(["admin", "create", "root2"], { env: { CHAINSWE_ADMIN_PASSWORD: "another long password" } });
    expect(run.code).toBe(0);
    expect(user("root2")).toMatchObject({ isReviewer: 1, isSiteAdmin: 1 });
  });

  it("fails clearly without a password, with a short one, or with a taken username", async () => {
    const none = await chainswe(["admin", "create", "nopw"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("chainswe: password: give the password on standard input with --password-stdin, or in CHAINSWE_ADMIN_PASSWORD\n");
    const short = await chainswe(["admin", "create", "shortpw", "--password-stdin"], { input: "short" });
    expect(short.code).toBe(2);
    expect(short.stderr).toBe("chainswe: password: at least 10 characters\n");
    const taken = await chainswe(["admin", "create", "root", "--password-stdin"], { input: "a long enough password" });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toBe('chainswe: username: "root" is taken\n');
    expect(user("nopw")).toBeUndefined();
    expect(user("shortpw")).toBeUndefined();
  });

  it("tells the user to migrate a database that has no tables", async () => {
    const run = await chainswe(["admin", "create", "root", "--password-stdin"], { input: "a long enough password", database: "empty.db" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("run `chainswe db migrate` first");
  });
});

describe("chainswe admin grant / revoke", () => {
  it("grants and revokes site roles, logged with no actor", async () => {
    expect((await chainswe(["admin", "create", "rev", "--password-stdin"], { input: "a long enough password" })).code).toBe(0);
    const revoked = await chainswe(["admin", "revoke", "rev", "site_admin"]);
    expect(revoked.stdout).toBe("revoked site_admin from rev\n");
    expect(revoked.code).toBe(0);
    expect(user("rev")).toMatchObject({ isReviewer: 1, isSiteAdmin: 0 });
    expect((await chainswe(["admin", "revoke", "rev", "reviewer"])).code).toBe(0);
    expect((await chainswe(["admin", "grant", "rev", "site_admin"])).stdout).toBe("granted site_admin to rev\n");
    expect(user("rev")).toMatchObject({ isReviewer: 0, isSiteAdmin: 1 });
    expect(audit().slice(-3)).toEqual([
      { actorId: null, action: "role_revoked", reason: "site_admin" },
      { actorId: null, action: "role_revoked", reason: "reviewer" },
      { actorId: null, action: "role_granted", reason: "site_admin" },
    ]);
  });

  it("names an unknown user or role and changes nothing", async () => {
    const before = audit().length;
    const unknown = await chainswe(["admin", "grant", "ghost", "reviewer"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('chainswe: username: no user "ghost"\n');
    const badRole = await chainswe(["admin", "grant", "rev", "owner"]);
    expect(badRole.code).not.toBe(0);
    expect(badRole.stderr).toContain("owner");
    expect(audit()).toHaveLength(before);
  });
});
