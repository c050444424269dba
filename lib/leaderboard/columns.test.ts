import { describe, expect, it } from "vitest";
import { DEFAULT_COLUMNS, columnsParam, columnsParamSchema, shownColumns, toggledColumns } from "@/lib/leaderboard/columns";
import { leaderboardHref, leaderboardViewSchema } from "@/lib/leaderboard/url";
import { parseViewQuery } from "@/lib/view-query";

describe("the leaderboard's chosen columns in the URL", () => {
  it("leaves the default set out of the URL and writes any other in the table's order", () => {
    expect(columnsParam([...DEFAULT_COLUMNS].reverse())).toBeUndefined();
    expect(columnsParam(["date", "scaffold"])).toBe("scaffold,date");
    expect(columnsParam([])).toBe("none");
    expect(shownColumns(undefined)).toEqual(DEFAULT_COLUMNS);
    expect(shownColumns("none")).toEqual([]);
  });
  it("shows or hides one column at a time", () => {
    expect(toggledColumns(undefined, "scaffold")).toBe("scaffold,config,cost,peak_context,date,badges");
    expect(toggledColumns("scaffold,config,cost,peak_context,date,badges", "scaffold")).toBeUndefined();
    expect(toggledColumns(undefined, "badges")).toBe("config,cost,peak_context,date");
  });
  it("names an unknown column and keeps the default view", () => {
    expect(columnsParamSchema.safeParse("scaffold,nope").success).toBe(false);
    const { query, problems } = parseViewQuery(leaderboardViewSchema, { cols: "scaffold,nope" });
    expect(query.cols).toBeUndefined();
    expect(problems).toEqual([{ field: "cols", message: expect.stringContaining("no column nope") }]);
  });
  it("round-trips through the view's URL", () => {
    const { query } = parseViewQuery(leaderboardViewSchema, { cols: "date, scaffold" });
    expect(query.cols).toBe("scaffold,date");
    expect(leaderboardHref(query)).toBe("/?cols=scaffold%2Cdate");
    expect(leaderboardHref(parseViewQuery(leaderboardViewSchema, { cols: "config,cost,peak_context,date,badges" }).query)).toBe("/");
  });
});
