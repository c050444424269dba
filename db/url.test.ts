import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureDatabaseDir } from "./url";

const dir = mkdtempSync(join(tmpdir(), "chainswe-dburl-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;

describe("ensureDatabaseDir", () => {
  it("makes a new SQLite file owner-only (not 0644)", () => {
    const file = join(dir, "new", "chainswe.db");
    ensureDatabaseDir(`file:${file}`);
    expect(mode(file)).toBe(0o600);
  });

  it("takes an existing world-readable database back to 0600, keeping its bytes", () => {
    const file = join(dir, "old.db");
    writeFileSync(file, "bytes", { mode: 0o644 });
    ensureDatabaseDir(`file:${file}?connection_limit=1`);
    expect(mode(file)).toBe(0o600);
    expect(statSync(file).size).toBe(5);
  });
});
