/**
 * Archives and compressed files by their first bytes. Predictions are taken as
 * plain JSON Lines only (never unpacked): an upload that is an archive is
 * refused by name instead of being read as hundreds of "malformed JSON" lines.
 * The trajectories archive is the one that must be a tar or tar.gz
 * (lib/submissions/trajectories.ts).
 */
import { open } from "node:fs/promises";

const SIGNATURES: { kind: string; at: number; bytes: number[] }[] = [
  { kind: "gzip", at: 0, bytes: [0x1f, 0x8b] },
  { kind: "zip", at: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { kind: "zip", at: 0, bytes: [0x50, 0x4b, 0x05, 0x06] }, // empty
  { kind: "zip", at: 0, bytes: [0x50, 0x4b, 0x07, 0x08] }, // spanned
  { kind: "bzip2", at: 0, bytes: [0x42, 0x5a, 0x68] },
  { kind: "xz", at: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { kind: "zstd", at: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { kind: "7z", at: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { kind: "rar", at: 0, bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { kind: "tar", at: 257, bytes: [0x75, 0x73, 0x74, 0x61, 0x72] }, // "ustar"
];

/** How many leading bytes archiveKind needs to see. */
export const ARCHIVE_SNIFF_BYTES = 262;

/** The kind of archive the file at `path` is, by its first bytes (archiveKind); null for anything else. */
export async function fileArchiveKind(path: string): Promise<string | null> {
  const handle = await open(path, "r");
  try {
    const head = new Uint8Array(ARCHIVE_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return archiveKind(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** "gzip", "zip", "tar", … when the file starts like one; null for anything else. */
export function archiveKind(head: Uint8Array): string | null {
  for (const s of SIGNATURES) {
    if (head.length >= s.at + s.bytes.length && s.bytes.every((b, i) => head[s.at + i] === b)) return s.kind;
  }
  return null;
}
