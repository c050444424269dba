import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { demoChain, demoInstance } from "@/tests/mining/demo-instances";
import { InputError } from "@/core/errors";
import { detectSource, parseInstance, SOURCES } from "./instances";
import { loadInstances } from "./load";

describe("instance files", () => {
  const bug = demoChain("inikit").bug_fixes[1]!;

  it.each(SOURCES)("normalizes a %s record", (source) => {
    const parsed = parseInstance(demoInstance(source, "inikit", 2), source);
    if (!parsed.ok) throw parsed.error;
    const i = parsed.instance;
    expect(i).toMatchObject({ source, repo: "chainswe-demo/inikit", instance_id: bug.swebench_instance_id, base_commit: demoChain("inikit").bug_fixes[0]!.commit_hash });
    expect(i.FAIL_TO_PASS).toEqual(bug.FAIL_TO_PASS);
    expect(i.PASS_TO_PASS).toEqual(bug.PASS_TO_PASS);
    expect(i.log_parser).toBe("pytest");
    expect(i.image_name).toMatch(/^chainswe-demo\/inikit:/);
    if (source === "SWE-bench" || source === "SWE-Gym") expect(i.test_cmds).toEqual(["python3 -m pytest -rA -p no:cacheprovider tests/test_values.py tests/test_writer.py"]);
    else expect(i.test_cmds.join(" && ")).toBe(bug.test_cmds.join(" && "));
  });

  it("tells SWE-rebench and SWE-bench-Live apart by shape; SWE-bench otherwise", () => {
    expect(detectSource(demoInstance("SWE-rebench", "inikit", 1))).toBe("SWE-rebench");
    expect(detectSource(demoInstance("SWE-bench-Live", "inikit", 1))).toBe("SWE-bench-Live");
    expect(detectSource(demoInstance("SWE-Gym", "inikit", 1))).toBe("SWE-bench");
  });

  it("names each source's published image when the record has none", () => {
    const { image_name: _, ...raw } = demoInstance("SWE-rebench", "inikit", 1);
    const parsed = parseInstance({ ...raw, instance_id: "tobymao__sqlglot-1234" });
    expect(parsed.ok && parsed.instance.image_name).toBe("swerebench/sweb.eval.x86_64.tobymao_1776_sqlglot-1234:latest");
  });

  it("refuses a bad file naming the line and field, and a duplicate instance", async () => {
    const dir = await mkdtemp(join(tmpdir(), "chainswe-instances-"));
    const good = demoInstance("SWE-bench-Live", "inikit", 1);
    const path = join(dir, "live.jsonl");
    await writeFile(path, [good, { ...good, instance_id: "x__y-2", base_commit: "not a hash" }, good].map((r) => JSON.stringify(r)).join("\n"));
    const err = await loadInstances([path]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain("line 2 (x__y-2), field base_commit: expected a commit hash");
    expect((err as InputError).message).toMatch(/line 3 \(chainswe-demo__inikit-1\), field instance_id: duplicate instance/);
    await expect(loadInstances([`SWE-Nope=${path}`])).rejects.toThrow(/unknown source "SWE-Nope"/);
  });
});
