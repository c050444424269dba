import { describe, expect, it } from "vitest";
import { OutputFrames } from "./output";

const TOKEN = "CHAINSWE-0123456789abcdef01234567";

/** Feeds `bytes` in chunks cut at `cuts` and returns what was kept, and the frames. */
function feed(bytes: Buffer, cuts: number[]): { kept: string; frames: Map<string, Buffer[]> } {
  const f = new OutputFrames(TOKEN);
  const kept: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    kept.push(f.push(bytes.subarray(at, cut)));
    at = cut;
  }
  kept.push(f.end());
  return { kept: Buffer.concat(kept).toString("latin1"), frames: f.frames };
}

describe("OutputFrames", () => {
  // a diff with raw bytes, newlines and a line that looks like a header of the same run inside it
  const diff = Buffer.concat([Buffer.from(`+x\n${TOKEN}-2 FRAME 1 1\n`), Buffer.from([0, 255, 10, 13])]);
  const paths = Buffer.from("a.py\0b c.py\0");
  const output = Buffer.concat([
    Buffer.from(`${TOKEN}-1 BEGIN\ngit apply ok\n${TOKEN}-1 FRAME ${diff.length} ${paths.length}\n`),
    diff,
    paths,
    Buffer.from(`${TOKEN}-1 TREE abc\nOTHER-TOKEN FRAME 3 0\nnot a frame\n${TOKEN}-g0 FRAME 0 0\nlast line without newline`),
  ]);
  const text = `${TOKEN}-1 BEGIN\ngit apply ok\n${TOKEN}-1 TREE abc\nOTHER-TOKEN FRAME 3 0\nnot a frame\nlast line without newline`;

  it("takes each frame's parts out of the output, whole", () => {
    const { kept, frames } = feed(output, []);
    expect(kept).toBe(text);
    expect(frames.get(`${TOKEN}-1`)).toEqual([diff, paths]);
    expect(frames.get(`${TOKEN}-g0`)).toEqual([Buffer.alloc(0), Buffer.alloc(0)]);
    expect([...frames.keys()]).toEqual([`${TOKEN}-1`, `${TOKEN}-g0`]);
  });

  it("gives the same result however the stream is cut", () => {
    for (let cut = 1; cut < output.length; cut++) {
      const { kept, frames } = feed(output, [cut, Math.min(output.length, cut + 7)]);
      expect(kept, `cut at ${cut}`).toBe(text);
      expect(frames.get(`${TOKEN}-1`), `cut at ${cut}`).toEqual([diff, paths]);
    }
    const byteByByte = feed(output, Array.from({ length: output.length - 1 }, (_, i) => i + 1));
    expect(byteByByte.kept).toBe(text);
    expect(byteByByte.frames.get(`${TOKEN}-1`)).toEqual([diff, paths]);
  });

  it("keeps a header whose sizes are missing as output, and a frame cut short is not a frame", () => {
    const { kept, frames } = feed(Buffer.from(`${TOKEN}-1 FRAME\n${TOKEN}-2 FRAME 10 0\nshort`), []);
    expect(kept).toBe(`${TOKEN}-1 FRAME\n`);
    expect(frames.size).toBe(0);
  });
});
