/**
 * `mine` against the demo repositories' real git history (no Docker): both join
 * conditions, a link that fails both, an instance whose patch does not apply at its
 * own base, and the overlap filter.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoClones, demoInstance } from "@/tests/mining/demo-instances";
import { chainSchema } from "@/core/schemas/dataset";
import { parseInstance, type Instance } from "./instances";
import { mine } from "./mine";
import { miningRecordSchema } from "./plan";

let dir: string;
let repos: string;

function instance(source: Parameters<typeof demoInstance>[0], name: string, order: number, change: Record<string, unknown> = {}): Instance {
  const parsed = parseInstance({ ...demoInstance(source, name, order), ...change }, source);
  if (!parsed.ok) throw parsed.error;
  return parsed.instance;
}

/** A commit on top of `parent` that touches nothing the bugs touch, so it is not bug 1's base's child. */
function unrelatedCommit(repo: string, parent: string): string {
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { encoding: "utf8" }).trim();
  git("checkout", "-q", "--detach", parent);
  execFileSync("sh", ["-c", `echo "see CHANGES" >> ${join(repo, "NOTES.txt")}`]);
  git("add", "NOTES.txt");
  git("commit", "-q", "-m", "notes");
  return git("rev-parse", "HEAD");
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-mine-test-"));
  repos = await demoClones(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("mine (git joins and overlap)", () => {
  it("joins immediate successors and drops the window with no shared file", async () => {
    const instances = [1, 2, 3, 4].map((k) => instance("SWE-rebench", "dateranges", k));
    const result = await mine({ instances, reposDir: repos, maxLength: 5, level: "file" });
    expect(result.links.map((l) => l.reason)).toEqual(["successor", "successor", "successor"]);
    // bugs 2 and 3 change span.py and schedule.py: the only window sharing nothing
    expect(result.dropped).toEqual([{ kind: "window", id: "chainswe-demo__dateranges-2+2", reason: "no pairwise file overlap between its gold patches" }]);
    expect(result.candidates.map((c) => c.continuous_id)).toEqual(
      ["1+2", "3+2", "1+3", "2+3", "1+4"].map((s) => `chainswe-demo__dateranges-${s}`),
    );
    const longest = chainSchema.parse(result.candidates.at(-1));
    const record = miningRecordSchema.parse(longest.mining);
    expect(record.footprints[0]).toEqual({ files: ["dateranges/span.py"], symbols: ["dateranges/span.py::DateSpan", "dateranges/span.py::DateSpan.__iter__", "dateranges/span.py::DateSpan.__len__"] });
    // bug 4 adds DateSpan.coerce to span.py as well
    expect(record.overlap.map((o) => `${o.a}-${o.b}`)).toEqual(["1-2", "1-4", "2-4", "3-4"]);
  });

  it("joins by apply check when a commit lies between the bases, and not when the patches do not apply", async () => {
    const inikit = join(repos, "chainswe-demo__inikit");
    const second = instance("SWE-bench-Live", "inikit", 2);
    const shifted = { ...second, base_commit: unrelatedCommit(inikit, second.base_commit) };
    const first = instance("SWE-bench-Live", "inikit", 1);
    // bug 1 again, later: its patches are already in bug 2's resolved state
    const again = { ...first, instance_id: "chainswe-demo__inikit-9", created_at: "2030-01-01T00:00:00.000Z", base_commit: shifted.base_commit };
    const result = await mine({ instances: [first, shifted, again], reposDir: repos, maxLength: 5, level: "file" });
    expect(result.links).toEqual([{ from: first.instance_id, to: second.instance_id, reason: "apply_check" }]);
    expect(result.dropped[0]).toMatchObject({ kind: "link", id: `${second.instance_id} -> chainswe-demo__inikit-9` });
    expect(result.dropped[0]!.reason).toMatch(/^not the base's successor, and on chainswe-demo__inikit-2's resolved state its test patch: /);
    // inikit 1 and 2 share no file: the joined pair is still not a candidate
    expect(result.candidates).toEqual([]);
    expect(result.dropped.filter((d) => d.kind === "window")).toEqual([{ kind: "window", id: "chainswe-demo__inikit-1+2", reason: "no pairwise file overlap between its gold patches" }]);
  });

  it("leaves out an instance whose patches do not apply at its own base, breaking the run there", async () => {
    const [a, b, c] = [1, 2, 3].map((k) => instance("SWE-bench", "moneyx", k));
    const broken = { ...b!, base_commit: c!.base_commit }; // bug 2's own fix commit: its patches are already there
    const result = await mine({ instances: [a!, broken, c!], reposDir: repos, maxLength: 5, level: "file" });
    expect(result.dropped.find((d) => d.kind === "instance")).toMatchObject({ id: b!.instance_id, reason: expect.stringMatching(/does not apply at its base commit/) });
    expect(result.candidates).toEqual([]);
  });

  it("says which repository has no clone", async () => {
    const other = { ...instance("SWE-Gym", "moneyx", 1), repo: "someone/elsewhere" };
    const result = await mine({ instances: [other], reposDir: repos, maxLength: 5, level: "file" });
    expect(result.dropped).toEqual([{ kind: "instance", id: other.instance_id, reason: `someone/elsewhere: no git clone at ${join(repos, "someone__elsewhere")}` }]);
  });
});
