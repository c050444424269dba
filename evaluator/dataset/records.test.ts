import { describe, expect, it } from "vitest";
import { arrayRecords } from "./records";

const records = (text: string) => [...arrayRecords(Buffer.from(text))];

describe("arrayRecords", () => {
  it("yields each element parsed alone, numbered from 1", () => {
    expect(records(' [ {"a": "x,]}\\"y", "b": [1, {"c": 2}]} , 3, "s" ] \n')).toEqual([
      { line: 1, value: { a: 'x,]}"y', b: [1, { c: 2 }] } },
      { line: 2, value: 3 },
      { line: 3, value: "s" },
    ]);
    expect(records("[]")).toEqual([]);
  });

  it("names the element where the structure breaks", () => {
    expect(records('[{"a": 1}, {"a": ')).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 2, error: "malformed JSON array: it does not end with ]" },
    ]);
    expect(records("[1, nope, 2]")[1]).toMatchObject({ line: 2, error: expect.stringMatching(/^malformed JSON in array element 2/) });
    expect(records("[1] x").at(-1)).toEqual({ line: 2, error: "malformed JSON array: text after its closing ]" });
  });

  it("is lazy: a consumer that stops early never walks the rest of a huge array", () => {
    const it = arrayRecords(Buffer.from(`[${"{},".repeat(1_000_000)}{}]`));
    expect(it.next().value).toEqual({ line: 1, value: {} });
    expect(it.next().value).toEqual({ line: 2, value: {} });
  });
});
