import { describe, expect, it } from "vitest";
import { DEMO_CHAINS } from "@/tests/mining/demo-instances";
import { datasetStatsSchema } from "@/core/schemas/columns";
import { datasetStats } from "@/core/dataset/stats";

describe("dataset statistics", () => {
  it("counts the demo dataset as the paper's tables do", () => {
    const mixed = { ...DEMO_CHAINS[0]!, source: "mixed" };
    const stats = datasetStats([mixed, ...DEMO_CHAINS.slice(1)]);
    expect(stats).toMatchObject({ chains: 5, bugs: 16, repos: 5, avg_length: 3.2, date_span: { from: "2023-02-14", to: "2024-03-11" } });
    expect(stats.by_source).toEqual([
      { source: "chainswe-demo", chains: 4, bugs: 12 },
      { source: "mixed", chains: 1, bugs: 4 },
    ]);
    expect(stats.by_repo![0]).toEqual({ repo: "chainswe-demo/dateranges", chains: 1, bugs: 4 });
    expect(datasetStatsSchema.parse(stats)).toEqual(stats);
  });

  it("still reads stats stored before the tables existed", () => {
    expect(datasetStatsSchema.parse({ chains: 1, bugs: 3, repos: 1 })).toEqual({ chains: 1, bugs: 3, repos: 1 });
    expect(datasetStats([])).toMatchObject({ chains: 0, avg_length: 0, date_span: null, by_source: [] });
  });
});
