/** The analysis pages' URL state: repeated systems, blanks as missing, defaults, a bad value named. */
import { describe, expect, it } from "vitest";
import { FieldError } from "@/core/errors";
import { parseQuery } from "@/lib/view-query";
import { analysisQuerySchema } from "@/lib/analysis/url";
import { positionsQuerySchema } from "@/lib/positions/url";
import { compareExportQuerySchema } from "@/lib/compare/url";

describe("analysis queries", () => {
  it("parses queries: repeated systems, blanks as missing, defaults, a bad value named", () => {
    const q = parseQuery(analysisQuerySchema, new URLSearchParams("system=x&system=y&mode=&position=2"));
    expect(q).toEqual({ system: ["x", "y"], position: 2 });
    expect(parseQuery(positionsQuerySchema, {})).toEqual({ scoring: "strict", positions: "length3", paper: false });
    expect(parseQuery(positionsQuerySchema, { paper: "1" }).paper).toBe(true);
    expect(parseQuery(compareExportQuerySchema, { a: "s1", table: "chains", format: "csv" })).toMatchObject({ a: "s1", table: "chains", format: "csv", scoring: "strict" });
    expect(() => parseQuery(positionsQuerySchema, { scoring: "loose" })).toThrow(FieldError);
    expect(() => parseQuery(analysisQuerySchema, { cause: "gremlins" })).toThrow(/cause/);
    // the budget curves' effort: cost by default, a made-up kind named
    expect(parseQuery(compareExportQuerySchema, { table: "budget" })).toMatchObject({ table: "budget", effort: "cost_usd" });
    expect(() => parseQuery(compareExportQuerySchema, { table: "budget", effort: "tokens" })).toThrow(/effort/);
  });
});
