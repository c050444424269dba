import { describe, expect, it } from "vitest";
import { textOn } from "@/lib/charts/contrast";

describe("textOn", () => {
  it("is white on the dark fills and black on the light ones (the site's chart colours)", () => {
    // --fp-broke-working-code, a maroon: dark labels on it were unreadable
    expect(textOn("#882255")).toBe("#fff");
    expect(textOn("#0072b2")).toBe("#fff");
    expect(textOn("#3d454f")).toBe("#fff");
    expect(textOn("#ddcc77")).toBe("#000");
    expect(textOn("#e69f00")).toBe("#000");
    expect(textOn("#d5d9df")).toBe("#000");
  });
  it("reads #rgb and rgb() too, and falls back to black on what it cannot read", () => {
    expect(textOn("#000")).toBe("#fff");
    expect(textOn(" rgb(255, 255, 255) ")).toBe("#000");
    expect(textOn("rgba(136 34 85 / 1)")).toBe("#fff");
    expect(textOn("currentColor")).toBe("#000");
  });
});
