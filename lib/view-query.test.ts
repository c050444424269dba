/** A view's URL state both ways: one value per parameter (the first), blanks as missing, bad values reported or thrown, links. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FieldError } from "@/core/errors";
import { hrefWith, parseQuery, parseViewQuery, repeated, scoringParam, single, text } from "./view-query";

const schema = z.object({ scoring: scoringParam, model: single(text.optional()), system: repeated });

describe("parsing", () => {
  it("takes a parameter's first value, from URL search params and from a page's searchParams alike", () => {
    const url = new URLSearchParams("model=m1&model=m2&system=a&system=b&scoring=");
    const page = { model: ["m1", "m2"], system: ["a", "b"], scoring: "" };
    expect(parseQuery(schema, url)).toEqual({ scoring: "strict", model: "m1", system: ["a", "b"] });
    expect(parseQuery(schema, page)).toEqual(parseQuery(schema, url));
  });

  it("reports every bad value and keeps the rest, or throws the first as a FieldError", () => {
    const { query, problems } = parseViewQuery(schema, { scoring: "loose", model: "m1" });
    expect(problems.map((p) => p.field)).toEqual(["scoring"]);
    expect(query).toEqual({ scoring: "strict", model: "m1", system: [] });
    expect(() => parseQuery(schema, { scoring: "loose" })).toThrow(FieldError);
  });
});

describe("hrefWith", () => {
  it("leaves out empty values and repeats arrays", () => {
    expect(hrefWith("/analysis", { version: "demo", system: ["a", "b"], mode: undefined, cause: "" }, "errors")).toBe("/analysis?version=demo&system=a&system=b#errors");
    expect(hrefWith("/positions", {})).toBe("/positions");
  });
});
