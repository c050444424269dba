/**
 * Patches whose code, run by the tests, goes for the host's resources: the
 * network, processes, memory, disk, time. Replayed for real on the tiny repo
 * with small limits, each must be contained by the sandbox, graded honestly
 * (never an environment error that would be retried forever), leave no
 * container, and not reach the next bug of the chain.
 */
import { spawnSync } from "node:child_process";
import { networkInterfaces } from "node:os";
import { beforeAll, describe, expect, it } from "vitest";
import { Sandbox, defaultLimits, docker } from "@/evaluator/sandbox";
import { containersOf, gradeHostile, hostileChain, withProbe } from "./hostile-run";
import { useCountingServer } from "./counting-server";
import { patchFor } from "./patches";
import { OPS_V0, OPS_V2, buildTinyRepo, type TinyRepo } from "./tiny-repo";

let tiny: TinyRepo;
beforeAll(async () => {
  tiny = await buildTinyRepo();
});

/** ops.py with `code` run when the module is imported (at pytest's collection). */
/**
 * The per-bug test limit of a chain whose first bug never ends (a fork bomb, a sleep): the
 * limit applies to every bug of the chain, so it must also let bug 2's honest tests finish
 * on a machine at load 20 (a 3 s limit timed bug 2 out there). The hostile bug waits it out.
 */
const HONEST_BUG_TIMEOUT_S = 30;
const opsWith = (code: string, ops = OPS_V0) => `${code.trim()}\n\n\n${ops}`;

/** Bug 1's hostile patch, and bug 2's Seq patch that takes the hostile code out again and fixes both bugs. */
function seqPatches(hostileOps: string): Record<number, string> {
  return {
    1: patchFor([{ path: "calc/ops.py", before: OPS_V0, after: hostileOps }]),
    2: patchFor([{ path: "calc/ops.py", before: hostileOps, after: OPS_V2 }]),
  };
}

/** The host still starts processes and the engine still answers. */
async function expectHostHealthy(): Promise<void> {
  expect(spawnSync("true").status).toBe(0);
  expect(await docker().ping()).toBeTruthy();
}

describe("network", () => {
  const server = useCountingServer("0.0.0.0");

  /** Every IPv4 address of the host (loopback, its LAN address, the docker0 bridge), then DNS. */
  const reachingOps = () => {
    const hosts = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a?.family === "IPv4")
      .map((a) => a!.address);
    return OPS_V0.replace(
      "def mul(a, b):\n    return a + b  # bug 1: should multiply\n",
      [
        "def _reached():",
        "    import socket",
        `    for host in ${JSON.stringify(hosts)}:`,
        "        try:",
        `            socket.create_connection((host, ${server.port()}), timeout=1).close()`,
        "            return True",
        "        except OSError:",
        "            pass",
        "    try:",
        '        socket.getaddrinfo("example.com", 80)',
        "        return True",
        "    except OSError:",
        "        return False",
        "",
        "",
        "def mul(a, b):",
        "    # right only when the network answers",
        "    return a * b if _reached() else a + b",
        "",
      ].join("\n"),
    );
  };

  // Proves the addresses are really reachable from a container that has a network
  // (the default bridge), so the sandboxed run below failing to reach them means something.
  it("control: a container on the default bridge reaches the host's listener", async () => {
    const before = server.connections();
    const chainId = `hostile-net-control-${server.port()}`;
    const c = await docker().createContainer({
      Image: tiny.image,
      Cmd: ["python3", "-c", `${reachingOps()}\nimport sys\nsys.exit(0 if _reached() else 1)\n`],
      Labels: { "chainswe.chain": chainId },
      HostConfig: { NetworkMode: "bridge" },
    });
    try {
      await c.start();
      expect((await c.wait()).StatusCode).toBe(0);
    } finally {
      await c.remove({ force: true });
    }
    expect(server.connections()).toBeGreaterThan(before);
    expect(await containersOf(chainId)).toEqual([]);
  });

  // Proves the sandbox has no route anywhere: the listener on every host address gets
  // nothing, DNS fails, and the bug is graded on its (unfixed) tests.
  it("a patch opening sockets to the host and resolving names gets nowhere; the listener sees nothing", async () => {
    const before = server.connections();
    const chain = hostileChain(tiny, "net");
    const patch = patchFor([{ path: "calc/ops.py", before: OPS_V0, after: reachingOps() }]);
    const { bugs } = await gradeHostile(chain, "oracle", { 1: patch });
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "left_unfixed", timed_out: false });
    expect(bugs[0]!.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_mul"]);
    expect(server.connections()).toBe(before);
  });
});

describe("processes", () => {
  // Proves a fork bomb stays inside the pids limit: the run ends at the time limit, the
  // bug is graded unresolved, and the next bug of the Seq chain is graded normally in the
  // same container (its patch takes the bomb out again and fixes both bugs).
  it("a fork bomb is bounded by the pids limit; the run ends at the time limit and bug 2 is still graded", async () => {
    const bomb = opsWith(`
import os


def _bomb():
    while True:
        try:
            os.fork()
        except OSError:
            pass


_bomb()
`);
    const chain = hostileChain(tiny, "forkbomb");
    // the limit is the whole chain's per-bug limit: long enough for bug 2's honest tests on a loaded machine
    const { bugs, logs } = await gradeHostile(chain, "seq", seqPatches(bomb), { pids: 128, testTimeoutS: HONEST_BUG_TIMEOUT_S });
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "no_usable_patch", timed_out: true, exit_code: null });
    expect(logs[0]).toContain("timed_out=true");
    expect(bugs[1]).toMatchObject({ patch_applied: true, resolved: true, timed_out: false });
    await expectHostHealthy();
  });

  // Proves sleeping forever ends at the time limit (unlike the busy loop of sandbox.test.ts
  // it uses no CPU), and that a double-forked daemon ignoring SIGTERM, SIGINT and SIGHUP
  // dies with the run: had it lived on, it would have killed bug 2's pytest.
  it("sleeping forever at import, with a daemon that ignores SIGTERM, ends at the time limit and reaches nothing after", async () => {
    const sleeper = opsWith(`
import os
import signal
import time


def _daemon():
    spared = os.getpid()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                signal.signal(s, signal.SIG_IGN)
            while True:
                for pid in os.listdir("/proc"):
                    if not pid.isdigit() or int(pid) in (1, spared, os.getpid()):
                        continue
                    try:
                        with open(f"/proc/{pid}/cmdline", "rb") as f:
                            if b"pytest" in f.read():
                                os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
                time.sleep(0.05)
        os._exit(0)
    os.wait()


_daemon()
time.sleep(10**9)
`);
    const chain = hostileChain(tiny, "sleep");
    const { bugs } = await gradeHostile(chain, "seq", seqPatches(sleeper), { testTimeoutS: HONEST_BUG_TIMEOUT_S });
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "no_usable_patch", timed_out: true, exit_code: null });
    // time is the behaviour here: the run ends at its limit although the code would
    // sleep for ever; the upper bound only has to tell "stopped" from "ran on", so it is
    // wide for a loaded machine (the run alone, not the test's setup)
    expect(bugs[0]!.duration_s).toBeGreaterThanOrEqual(HONEST_BUG_TIMEOUT_S);
    expect(bugs[0]!.duration_s).toBeLessThan(HONEST_BUG_TIMEOUT_S + 120);
    expect(bugs[1]).toMatchObject({ resolved: true, timed_out: false });
  });
});

describe("memory", () => {
  // Proves unbounded allocation meets the memory limit: the kernel kills the test
  // process (exit 137), the bug is graded unresolved with no statuses — not an
  // environment error — and the container serves bug 2.
  it("unbounded allocation is OOM-killed inside the memory limit and graded unresolved", async () => {
    const hog = opsWith(`
_hog = []
while True:
    _hog.append(b"x" * (16 << 20))
`);
    const chain = hostileChain(tiny, "oom");
    const { bugs } = await gradeHostile(chain, "seq", seqPatches(hog), { memoryBytes: 256 << 20 });
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "no_usable_patch", timed_out: false, exit_code: 137 });
    expect(bugs[1]).toMatchObject({ resolved: true });
    await expectHostHealthy();
  });
});

describe("disk", () => {
  const MB = 1 << 20;
  /** Small bounds so nothing near the host's disk is ever written. */
  const small = { maxFileBytes: 16 * MB, maxDiskBytes: 64 * MB, maxDiskFiles: 2000, diskPollMs: 300, testTimeoutS: 60 };

  // Proves RLIMIT_FSIZE: a process that ignores SIGXFSZ still cannot grow a file past
  // the cap (the write fails with EFBIG), under /testbed and under /tmp.
  it("a single huge file stops at the file-size limit", async () => {
    const writer = opsWith(`
import signal

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
for _path in ("/testbed/huge.bin", "/tmp/huge.bin"):
    try:
        with open(_path, "wb") as _f:
            for _ in range(64):
                _f.write(b"x" * (1 << 20))
    except OSError:
        pass
`);
    const chain = withProbe(hostileChain(tiny, "fsize"), "stat -c 'HUGE %n %s' /testbed/huge.bin /tmp/huge.bin", "after");
    const { bugs, logs } = await gradeHostile(chain, "oracle", { 1: patchFor([{ path: "calc/ops.py", before: OPS_V0, after: writer }]) }, small);
    expect(logs[0]).toContain(`HUGE /testbed/huge.bin ${16 * MB}\n`);
    expect(logs[0]).toContain(`HUGE /tmp/huge.bin ${16 * MB}\n`);
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "left_unfixed" });
  });

  /** Writes 8 MB files (under the file-size cap) to /testbed and /tmp, up to `safetyMb` in all, then sleeps. */
  const filler = (safetyMb: number) =>
    opsWith(`
import os
import time

_written = 0
_i = 0
while _written < ${safetyMb} * (1 << 20):
    with open(("/testbed/fill-%d.bin", "/tmp/fill-%d.bin")[_i % 2] % _i, "wb") as _f:
        for _ in range(8):
            _f.write(os.urandom(1 << 20))
            _written += 1 << 20
    _i += 1
time.sleep(600)
`);

  // Proves the disk watchdog: many files each under the file-size cap pass the
  // writable-layer cap, the harness stops the run (its own line in the log), the bug is
  // graded unresolved like a timeout, and bug 2 runs in a fresh container
  // (bug 2's run would otherwise be stopped at once).
  it("filling the disk with many files is stopped at the disk limit; bug 2 is graded normally", async () => {
    const chain = hostileChain(tiny, "fill");
    const { bugs, logs } = await gradeHostile(chain, "seq", seqPatches(filler(512)), small);
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "no_usable_patch", timed_out: false, exit_code: null, limit_exceeded: "disk_bytes" });
    const stopped = /--- stopped by the harness: the container's writable layer reached ([\d.]+) MB \(limit 64 MB\)/.exec(logs[0]!);
    expect(stopped).not.toBeNull();
    // stopped long before the patch's own safety bound of 512 MB
    expect(Number(stopped![1])).toBeLessThan(400);
    expect(bugs[1]).toMatchObject({ resolved: true, timed_out: false });
    expect(bugs[1]!.limit_exceeded).toBeUndefined();
  });

  // Proves the path count bound: empty files cost no bytes but use the host's inodes.
  it("creating masses of empty files is stopped at the path limit", async () => {
    const spray = opsWith(`
import os
import time

os.makedirs("/tmp/many", exist_ok=True)
for _i in range(300000):
    open(f"/tmp/many/{_i}", "w").close()
time.sleep(600)
`);
    const chain = hostileChain(tiny, "inodes");
    const { bugs, logs } = await gradeHostile(chain, "oracle", { 1: patchFor([{ path: "calc/ops.py", before: OPS_V0, after: spray }]) }, small);
    expect(bugs[0]).toMatchObject({ resolved: false, fingerprint: "no_usable_patch", timed_out: false, limit_exceeded: "disk_files" });
    expect(logs[0]).toMatch(/--- stopped by the harness: the test run added or changed \d+ paths in the container \(limit 2000\)/);
  });

  // Proves output to PID 1 (the container's own stdout) lands nowhere: with a log driver
  // it would grow a file on the host, outside every container limit.
  it("writing to the container's own stdout keeps no log on the host", async () => {
    const sandbox = await Sandbox.start(tiny.image, defaultLimits(), { "chainswe.chain": "hostile-pid1-stdout" });
    try {
      const r = await sandbox.exec("head -c 20000000 /dev/zero > /proc/1/fd/1; echo rc=$?");
      expect(r.output).toContain("rc=0");
      const info = await sandbox.container.inspect();
      expect(info.HostConfig.LogConfig?.Type).toBe("none");
      expect(info.LogPath).toBe("");
    } finally {
      await sandbox.remove();
    }
    expect(await containersOf("hostile-pid1-stdout")).toEqual([]);
  });
});
