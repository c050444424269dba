import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { archiveKind } from "@/lib/submissions/archive-kind";

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("archiveKind", () => {
  it("names archives and compressed files by their first bytes", () => {
    expect(archiveKind(gzipSync(Buffer.from('{"a": 1}\n')))).toBe("gzip");
    expect(archiveKind(bytes(0x50, 0x4b, 0x03, 0x04, 0x14, 0x00))).toBe("zip");
    expect(archiveKind(new TextEncoder().encode("BZh91AY&SY"))).toBe("bzip2");
    expect(archiveKind(bytes(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00))).toBe("xz");
    expect(archiveKind(bytes(0x28, 0xb5, 0x2f, 0xfd, 0x04))).toBe("zstd");
    expect(archiveKind(bytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0x00, 0x04))).toBe("7z");
    const tar = new Uint8Array(512);
    tar.set(new TextEncoder().encode("preds.jsonl"), 0);
    tar.set(new TextEncoder().encode("ustar\u000000"), 257);
    expect(archiveKind(tar)).toBe("tar");
  });

  it("leaves JSON Lines, empty and short files alone", () => {
    expect(archiveKind(new TextEncoder().encode('{"continuous_id": "x", "model_patch": ""}\n'))).toBeNull();
    expect(archiveKind(new Uint8Array())).toBeNull();
    expect(archiveKind(bytes(0x1f))).toBeNull();
    expect(archiveKind(new TextEncoder().encode("PK is not enough"))).toBeNull();
  });
});
