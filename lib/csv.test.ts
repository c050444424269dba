import { describe, expect, it } from "vitest";
import { toCsv } from "./csv";

describe("toCsv", () => {
  it("writes a header and quotes what needs quoting", () => {
    const rows = [{ name: 'a "quoted", name', rate: 49, missing: null }];
    const csv = toCsv([{ label: "System", value: (r: (typeof rows)[number]) => r.name }, { label: "Per-bug %", value: (r) => r.rate }, { label: "Cost", value: (r) => r.missing }], rows);
    expect(csv).toBe('System,Per-bug %,Cost\n"a ""quoted"", name",49,\n');
  });
});
