import { describe, expect, it } from "vitest";
import { systemWarnings } from "./systems";

describe("systemWarnings", () => {
  it("warns of a training cutoff later than the release date, naming both", () => {
    expect(systemWarnings({ releaseDate: "2024-03-01", trainingCutoff: "2024-06-30" })).toEqual([
      'the training cutoff (2024-06-30) is after the release date (2024-03-01): check both; "after its cutoff" views use the cutoff',
    ]);
  });

  it("is quiet for a cutoff on or before the release, or either date missing", () => {
    expect(systemWarnings({ releaseDate: "2024-03-01", trainingCutoff: "2024-03-01" })).toEqual([]);
    expect(systemWarnings({ releaseDate: "2024-03-01", trainingCutoff: "2023-12-31" })).toEqual([]);
    expect(systemWarnings({ releaseDate: null, trainingCutoff: "2024-06-30" })).toEqual([]);
    expect(systemWarnings({ releaseDate: "", trainingCutoff: "" })).toEqual([]);
  });
});
