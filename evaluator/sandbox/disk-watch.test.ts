/** Which disk bound a measurement of the writable layer passes (evaluator/sandbox/disk-watch). */
import { describe, expect, it } from "vitest";
import { describeDiskExceeded, diskVerdict } from "./disk-watch";

const bounds = { maxDiskBytes: 100 * 1048576, maxDiskFiles: 1000 };

describe("diskVerdict", () => {
  it("is null within both bounds, including exactly at them", () => {
    expect(diskVerdict({ bytes: 100 * 1048576, files: 1000 }, bounds)).toBeNull();
    expect(diskVerdict({}, bounds)).toBeNull();
  });

  it("names the bound passed, bytes first", () => {
    expect(diskVerdict({ bytes: 100 * 1048576 + 1, files: 5000 }, bounds)).toEqual({ limit: "disk_bytes", used: 100 * 1048576 + 1, max: 100 * 1048576 });
    expect(diskVerdict({ bytes: 1, files: 1001 }, bounds)).toEqual({ limit: "disk_files", used: 1001, max: 1000 });
  });

  it("describes what happened in one line", () => {
    expect(describeDiskExceeded({ limit: "disk_bytes", used: 150 * 1048576, max: 100 * 1048576 })).toBe(
      "the container's writable layer reached 150.0 MB (limit 100 MB)",
    );
    expect(describeDiskExceeded({ limit: "disk_files", used: 1200, max: 1000 })).toBe("the test run added or changed 1200 paths in the container (limit 1000)");
  });
});
