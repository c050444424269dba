import { describe, expect, it } from "vitest";
import { hiddenTestNames, MAX_STORED_HITS, scanShortcuts, shortcutKinds, shortcutSummary, storedHits } from "./shortcuts";
import { clipItems, codePointSlice, itemCount, pageOfCall, pageSpan, parseTimeline, stepCount, timelinePage, timelinePages, type TimelinePageStart, type ToolCall } from "./timeline";

/** A call block as the rollout's exec wrapper appends it (docs/ROLLOUT.md "Trajectory log"). */
function block(command: string, stdout = "", stderr = "", exit = "0 12ms"): string {
  const [first, ...more] = command.split("\n");
  return [
    `##[chainswe] $ ${first}`,
    ...more.map((l) => `##[chainswe] > ${l}`),
    ...(stdout ? [stdout.replace(/\n$/, "")] : []),
    ...(stderr ? ["##[chainswe] stderr", stderr.replace(/\n$/, "")] : []),
    `##[chainswe] exit ${exit}`,
    "",
  ].join("\n");
}

describe("parseTimeline", () => {
  it("reads steps, the agent's text and tool calls with both streams, exit and time", () => {
    const log = [
      "##[chainswe] step Read the issue\n",
      "The issue says parse() drops the sign.\n",
      block("grep -n sign src/p.py", "12: sign = 1\n"),
      "##[chainswe] step Fix it\n",
      block("python - <<'EOF'\nprint(1)\nEOF", "1\n", "warn: x\nwarn: y\n", "3 250ms [4000 bytes not logged]"),
      "done\n",
    ].join("");
    const t = parseTimeline(log);
    expect(t.steps.map((s) => [s.index, s.title, s.items.map((i) => i.kind)])).toEqual([
      [1, "Read the issue", ["text", "call"]],
      [2, "Fix it", ["call", "text"]],
    ]);
    expect(t.steps[0]!.items[0]).toEqual({ kind: "text", text: "The issue says parse() drops the sign.", line: 2 });
    const second = t.calls[1]!;
    expect(second).toMatchObject({ index: 2, command: "python - <<'EOF'\nprint(1)\nEOF", stdout: "1", stderr: "warn: x\nwarn: y", exitCode: 3, ms: 250, omittedBytes: 4000 });
    expect(second.line).toBe(log.split("\n").findIndex((l) => l.startsWith("##[chainswe] $ python")) + 1);
    expect(t.declaredSteps).toBe(2);
    expect(stepCount(t)).toBe(2);
  });

  it("takes a log without markers as one step of text, and counts calls as steps when none are declared", () => {
    expect(parseTimeline("hello\n\nworld\n")).toEqual({ steps: [{ index: 1, title: null, items: [{ kind: "text", text: "hello\n\nworld", line: 1 }] }], calls: [], declaredSteps: 0 });
    const t = parseTimeline(block("ls") + block("ls -a"));
    expect(t.steps).toHaveLength(1);
    expect(stepCount(t)).toBe(2);
  });

  it("keeps a call the log ends inside of, with no exit, and marker-like output lines inside a call as output", () => {
    const t = parseTimeline("##[chainswe] $ cat log\n##[chainswe] step not a step\nmore");
    expect(t.calls).toHaveLength(1);
    expect(t.calls[0]).toMatchObject({ command: "cat log", stdout: "##[chainswe] step not a step\nmore", exitCode: null, ms: null });
    expect(t.declaredSteps).toBe(0);
  });
});

describe("timeline pages", () => {
  /** A page as the view reads it: its span's slice alone, as SQL's substr would answer it. */
  const page = (log: string, pages: TimelinePageStart[], n: number, maxChars: number) => {
    const span = pageSpan(pages, n, maxChars)!;
    return timelinePage(codePointSlice(log, span.from, span.length), span.start, maxChars);
  };
  const log = `##[chainswe] step A\nsaid\n${block("ls")}##[chainswe] step B\n${block("pwd")}${block("id")}##[chainswe] step C\n${block("date")}`;
  it("parses each page from its own slice as the whole log reads it: steps, call numbers and lines go on", () => {
    const t = parseTimeline(log);
    expect(itemCount(t)).toBe(5);
    const pages = timelinePages(log, t, 2);
    expect(pages.map((p) => [p.line, p.calls, p.step, p.title])).toEqual([[2, 0, 1, "A"], [6, 1, 2, "B"], [11, 3, 3, "C"]]);
    for (const [i] of pages.entries()) {
      const { timeline, cut } = page(log, pages, i + 1, 1 << 20);
      expect(cut).toBe(false);
      const whole = t.steps.flatMap((s) => s.items.map((item) => ({ step: s.index, title: s.title, item }))).slice(i * 2, i * 2 + 2);
      expect(timeline.steps.flatMap((s) => s.items.map((item) => ({ step: s.index, title: s.title, item })))).toEqual(whole);
    }
    expect([pageOfCall(pages, 1), pageOfCall(pages, 2), pageOfCall(pages, 3), pageOfCall(pages, 4)]).toEqual([1, 2, 2, 3]);
  });

  it("counts a page's start in code points, so a slice read by SQL's substr starts where the page does, after characters outside the BMP too", () => {
    const astral = `##[chainswe] step 🚀 A\n${"said 😀😀 ✓\n".repeat(3)}${block("echo 🦀", "🦀🦀\n")}##[chainswe] step B\n${block("pwd")}${block("id")}`;
    const t = parseTimeline(astral);
    const pages = timelinePages(astral, t, 2);
    expect(pages.length).toBe(2);
    // the second page starts at the 'pwd' call: in code points, two fewer per emoji than in UTF-16 units before it
    const utf16 = astral.indexOf("##[chainswe] $ pwd");
    expect(pages[1]!.at).toBe(Array.from(astral.slice(0, utf16)).length);
    expect(pages[1]!.at).toBeLessThan(utf16);
    const items = (tl: ReturnType<typeof parseTimeline>) => tl.steps.flatMap((s) => s.items.map((item) => ({ step: s.index, item })));
    expect([...items(page(astral, pages, 1, 1 << 20).timeline), ...items(page(astral, pages, 2, 1 << 20).timeline)]).toEqual(items(t));
    expect(pageSpan(pages, 3, 100)).toBeNull();
  });

  it("reads at most maxChars of a page's slice, and shows each text up to a limit", () => {
    const big = block("cat big", "y".repeat(5000));
    const pages = timelinePages(big, parseTimeline(big), 100);
    const { timeline, cut } = page(big, pages, 1, 1000);
    expect(cut).toBe(true);
    expect(timeline.calls[0]!.stdout.length).toBeLessThan(1000);
    const clipped = clipItems(parseTimeline(big), 100).calls[0]!;
    expect(clipped.stdout).toBe(`${"y".repeat(100)}\n… 4900 more characters: see the raw log`);
  });
});

const call = (command: string, stdout = "", stderr = ""): ToolCall => ({ kind: "call", index: 1, command, stdout, stderr, exitCode: 0, ms: 1, omittedBytes: 0, line: 1 });
const kindsOf = (command: string, stdout = "", stderr = "", hidden: string[] = []) =>
  scanShortcuts({ steps: [], calls: [call(command, stdout, stderr)], declaredSteps: 0 }, hidden).map((h) => h.kind);

describe("scanShortcuts", () => {
  it.each([
    "git log --all --oneline",
    "git --no-pager log --branches -5",
    "git -C /testbed rev-list --remotes",
    "gitk --all",
    "git reflog",
    "git show HEAD@{2}",
    "git fsck --lost-found",
    "git cat-file --batch-all-objects --batch-check",
    "cat .git/packed-refs",
    "git fetch origin",
    "sh -c 'git log --all'",
    'bash -lc "cd /testbed && /usr/bin/git reflog"',
  ])("flags %s as reading future history", (command) => {
    expect(kindsOf(command)).toContain("future_history");
  });

  it.each(["git log --oneline -5", "git add --all", "git status --short", "git diff HEAD", "git show HEAD:src/a.py"])("leaves %s alone", (command) => {
    expect(kindsOf(command)).toEqual([]);
  });

  it.each(["curl -s https://pypi.org/simple/semver/", "pip download semver -d /tmp/x", "python -m pip install requests", "apt-get update", "x=1; wget pypi.org"])(
    "flags %s as a network attempt",
    (command) => {
      expect(kindsOf(command)).toContain("network");
    },
  );

  it("flags a failed lookup in the output, and leaves offline installs alone", () => {
    expect(kindsOf("python fetch.py", "", "socket.gaierror: [Errno -3] Temporary failure in name resolution")).toEqual(["network"]);
    expect(kindsOf("pip install -e .")).toEqual([]);
    expect(kindsOf("pip install --no-index ./dist/x.whl")).toEqual([]);
    expect(kindsOf("nc_count=3; echo $nc_count")).toEqual([]);
  });

  it("flags the test lists by name and by a hidden test the test patch adds", () => {
    expect(kindsOf("jq .FAIL_TO_PASS /data/d.jsonl")).toEqual(["test_lists"]);
    const hidden = ["tests/test_p.py::test_parse_keeps_negative_sign"];
    expect(kindsOf("pytest -q 'tests/test_p.py::test_parse_keeps_negative_sign'", "", "", hidden)).toEqual(["test_lists"]);
    expect(kindsOf("pytest -q -k test_parse_keeps_negative_sign", "", "", hidden)).toEqual(["test_lists"]);
    expect(kindsOf("pytest -q tests/test_p.py", "", "", hidden)).toEqual([]);
  });

  it("reads a command's first 8 KB only: a forged megabyte command costs no more to scan", () => {
    expect(kindsOf(`${"x".repeat(9000)}; git reflog`)).toEqual([]);
    expect(kindsOf(`${"x".repeat(8000)}; git reflog`)).toEqual(["future_history"]);
  });

  it("gives one hit per kind per call, naming the call", () => {
    const t = parseTimeline(block("ls") + block("git log --all; git reflog; curl http://x") + block("git fetch"));
    const hits = scanShortcuts(t);
    expect(hits.map((h) => [h.call, h.kind])).toEqual([
      [2, "future_history"],
      [2, "network"],
      [3, "future_history"],
    ]);
    expect(hits[0]!.command).toBe("git log --all; git reflog; curl http://x");
    expect(shortcutSummary([hits, [], scanShortcuts(parseTimeline(block("wget x")))])).toEqual({ future_history: 1, network: 2 });
  });
});

describe("storedHits", () => {
  it("keeps MAX_STORED_HITS of a scan, the first of each kind among them", () => {
    const t = parseTimeline(block("git log --all").repeat(3 * MAX_STORED_HITS) + block("curl http://x"));
    const hits = scanShortcuts(t);
    const kept = storedHits(hits);
    expect([hits.length, kept.length, shortcutKinds(kept)]).toEqual([3 * MAX_STORED_HITS + 1, MAX_STORED_HITS, ["future_history", "network"]]);
    expect(kept.map((h) => h.call)).toEqual([...Array.from({ length: MAX_STORED_HITS - 1 }, (_, i) => i + 1), 3 * MAX_STORED_HITS + 1]);
  });
});

describe("hiddenTestNames", () => {
  const testPatch = [
    "--- a/tests/test_p.py",
    "+++ b/tests/test_p.py",
    "@@ -1,3 +1,9 @@",
    "-def test_old(x):",
    "+def test_old(x, y):",
    "+    pass",
    "+def test_new_sign[",
    "+async def test_new_async():",
    "+def test_new_plain():",
  ].join("\n");
  it("keeps FAIL_TO_PASS ids whose function the test patch adds, not ones it only changes", () => {
    expect(
      hiddenTestNames(testPatch, ["tests/test_p.py::test_old", "tests/test_p.py::test_new_plain[a-1]", "tests/test_p.py::TestX::test_new_async", "test_new_plain (tests.test_p.T)", "tests/test_p.py::test_absent"]),
    ).toEqual(["tests/test_p.py::test_new_plain[a-1]", "tests/test_p.py::TestX::test_new_async", "test_new_plain (tests.test_p.T)"]);
  });
});
