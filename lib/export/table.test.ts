/** An export's records: flat objects keyed by column label. */
import { describe, expect, it } from "vitest";
import { exportTable } from "@/lib/export/table";

describe("exportTable", () => {
  it("an export's rows are objects keyed by column label, missing values null", () => {
    const t = exportTable("t", [{ label: "id", value: (r: { id: string; v?: number }) => r.id }, { label: "v", value: (r) => r.v }], [{ id: "a", v: 1 }, { id: "b" }]);
    expect(t.rows).toEqual([
      { id: "a", v: 1 },
      { id: "b", v: null },
    ]);
    expect(t.columns.map((c) => c.label)).toEqual(["id", "v"]);
  });
});
