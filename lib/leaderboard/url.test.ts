/** The leaderboard's URL state both ways: defaults, canonical URLs, blanks, bad values by field. */
import { describe, expect, it } from "vitest";
import { leaderboardView as q } from "@/lib/testing/leaderboard-row";
import { parseViewQuery } from "@/lib/view-query";
import { leaderboardApiQuerySchema, leaderboardHref, leaderboardViewSchema } from "@/lib/leaderboard/url";

describe("URL state", () => {
  it("parses defaults, and serializes a view to a canonical URL without them", () => {
    const d = q();
    expect(d).toMatchObject({ scoring: "strict", sort: "per_bug.desc", group: "none", paper: false, all: false });
    expect(leaderboardHref(d)).toBe("/");
    const v = q({ mode: "seq", config: "Sub-Agent", open_weights: "1", from: "2025-01-01", sort: "cost.asc", paper: "1", scoring: "lenient", version: "v1" });
    const href = leaderboardHref(v);
    expect(href).toBe("/?version=v1&scoring=lenient&mode=seq&config=Sub-Agent&open_weights=1&from=2025-01-01&sort=cost.asc&paper=1");
    // round trip: the URL reproduces the view
    expect(q(Object.fromEntries(new URL(href, "http://x").searchParams))).toEqual(v);
    expect(leaderboardHref(v, { sort: "date.desc", format: "csv" }, "/api/v1/leaderboard")).toContain("/api/v1/leaderboard?version=v1&");
    expect(leaderboardHref(v, { format: "csv" }, "/api")).toMatch(/&format=csv$/);
  });

  it("treats a form's empty values as absent, and open flags as three-way", () => {
    expect(q({ mode: "", config: "", open_weights: "", from: "" })).toEqual(q());
    expect(q({ open_weights: "0" }).open_weights).toBe(false);
    expect(leaderboardHref(q({ open_weights: "0" }))).toBe("/?open_weights=0");
    expect(q({ group: "config", paper: "on" })).toMatchObject({ group: "config", paper: true });
  });

  it("reports a bad value by field and keeps the rest", () => {
    const { query, problems } = parseViewQuery(leaderboardViewSchema, new URLSearchParams("mode=turbo&sort=height.up&from=2025-13-01&config=Summarize"));
    expect(problems.map((p) => p.field).sort()).toEqual(["from", "mode", "sort"]);
    expect(problems.find((p) => p.field === "sort")?.message).toMatch(/per_bug/);
    expect(query).toMatchObject({ config: "Summarize", sort: "per_bug.desc" });
    expect(query.mode).toBeUndefined();
    expect(parseViewQuery(leaderboardApiQuerySchema, { format: "xml" }).problems[0]?.field).toBe("format");
    expect(parseViewQuery(leaderboardApiQuerySchema, { format: "csv" }).query.format).toBe("csv");
  });
});
