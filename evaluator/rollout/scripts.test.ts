import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentDiffScript, agentViewScript, parseDiff, parseView } from "./scripts";

const TOKEN = "CHAINSWE-abc";

describe("rollout scripts", () => {
  it("the view script starts from the given state and replaces .git", () => {
    const s = agentViewScript(TOKEN, "deadbeef");
    expect(s).toContain("git checkout -q -f --detach 'deadbeef'");
    expect(s).toContain("rm -rf /tmp/chainswe");
    expect(s).toContain("rm -rf .git && mv");
    expect(s.indexOf("rm -rf /tmp/chainswe")).toBeLessThan(s.indexOf(`echo "${TOKEN} VIEW $commit"`));
  });

  it("parses the view commit, and nothing from a failed view", () => {
    const sha = "a".repeat(40);
    expect(parseView(`noise\n${TOKEN} VIEW ${sha}\n`, TOKEN)).toBe(sha);
    expect(parseView(`${TOKEN} VIEW_FAILED\n`, TOKEN)).toBeNull();
    expect(parseView(`OTHER VIEW ${sha}\n`, TOKEN)).toBeNull();
  });

  it("cuts the diff out of the output, empty included", () => {
    const diff = "diff --git a/x b/x\n+1\n";
    expect(parseDiff(`warning\n${TOKEN} BEGIN\n${diff}${TOKEN} END\n`, TOKEN)).toBe(diff);
    expect(parseDiff(`${TOKEN} BEGIN\n${TOKEN} END\n`, TOKEN)).toBe("");
    expect(parseDiff(`${TOKEN} DIFF_FAILED\n`, TOKEN)).toBeNull();
  });

  it("on a real repository: one commit, the start tree's objects only, and the agent's change as the diff", () => {
    const dir = mkdtempSync(join(tmpdir(), "chainswe-view-"));
    const env = { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_SYSTEM: "/dev/null" };
    const git = (...a: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...a], { cwd: dir, env, encoding: "utf8" }).trim();
    git("init", "-q");
    writeFileSync(join(dir, "m.py"), "x = 1\n");
    git("add", "-A");
    git("commit", "-qm", "start");
    const start = git("rev-parse", "HEAD");
    writeFileSync(join(dir, "m.py"), "x = 1\nLATER_FIX = True\n");
    git("commit", "-qam", "later fix");
    const bash = (script: string) => execFileSync("bash", ["-c", script.replaceAll("cd /testbed", `cd ${dir}`)], { env, encoding: "utf8" });
    const view = parseView(bash(agentViewScript(TOKEN, start)), TOKEN);
    expect(view).not.toBeNull();
    expect(git("rev-list", "--all")).toBe(view);
    const objects = git("cat-file", "--batch-all-objects", "--batch-check");
    expect(objects.split("\n")).toHaveLength(3); // commit, tree, one blob
    expect(git("cat-file", "--batch-all-objects", "--batch")).not.toContain("LATER_FIX");
    expect(git("log", "-g", "--all", "--format=%H").split("\n").every((h) => h === view)).toBe(true);
    writeFileSync(join(dir, "m.py"), "x = 2\n");
    writeFileSync(join(dir, "new.py"), "y = 1\n");
    writeFileSync(join(dir, "blob.bin"), Buffer.from([0, 1, 2, 255]));
    const diff = parseDiff(bash(agentDiffScript(TOKEN, view!)), TOKEN);
    expect(diff).toContain("diff --git a/m.py b/m.py");
    expect(diff).toContain("+x = 2");
    expect(diff).toContain("new file mode 100644");
    expect(diff).toMatch(/^index 000000000000\.\.[0-9a-f]{12}$/m);
    expect(diff).toContain("GIT binary patch");
  });
});
