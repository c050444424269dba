import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { arrayRecords, readRecords } from "./records";

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

describe("invalid UTF-8", () => {
  // a patch whose bytes are not UTF-8 used to be stored with U+FFFD in their place, silently
  const line = (patch: Buffer) => Buffer.concat([Buffer.from('{"model_patch": "+x = \''), patch, Buffer.from('\'\\n"}')]);
  const bad = Buffer.from([0xff, 0xfe, 0x41]);

  it("refuses the JSONL line that holds it, by number, and reads the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainswe-utf8-"));
    const path = join(dir, "p.jsonl");
    writeFileSync(path, Buffer.concat([Buffer.from('{"a": "é"}\n'), line(bad), Buffer.from('\n{"a": 3}\n')]));
    const out = [];
    for await (const r of readRecords(path)) out.push(r);
    expect(out).toEqual([
      { line: 1, value: { a: "é" } },
      { line: 2, error: expect.stringMatching(/^not valid UTF-8 text/) },
      { line: 3, value: { a: 3 } },
    ]);
  });

  it("refuses the array element that holds it, by number", () => {
    const out = [...arrayRecords(Buffer.concat([Buffer.from("[1, "), line(bad), Buffer.from("]")]))];
    expect(out[0]).toEqual({ line: 1, value: 1 });
    expect(out[1]).toMatchObject({ line: 2, error: expect.stringMatching(/^array element 2 is not valid UTF-8 text/) });
  });
});
