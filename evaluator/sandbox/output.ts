/**
 * Bounded capture of an exec's output: keeps the head and the tail, drops the
 * middle once the cap is reached and says so. A run whose output overflowed is
 * not trusted for grading (a patch could push the real summary out of view).
 */
export class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer): void {
    const half = Math.floor(this.capBytes / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > half && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  text(): string {
    const head = Buffer.concat(this.head).toString("utf8");
    const tail = Buffer.concat(this.tail).toString("utf8");
    if (!this.truncated) return head + tail;
    return `${head}\n[chainswe: ${this.dropped} bytes of output dropped here]\n${tail}`;
  }
}

/**
 * Takes byte frames out of a trusted script's output: a line `<tag> FRAME
 * <bytes>…` (tag starting with `prefix`, a random token) is followed by that
 * many raw bytes per size, which are set aside under the tag instead of being
 * kept as output. This carries files (a graded state's diff) on the exec's own
 * stream, without a copy out of the container afterwards. Only trusted output
 * may be read this way: the prefix is unguessable to anything the script
 * prints.
 */
export class OutputFrames {
  readonly frames = new Map<string, Buffer[]>();
  private pending: Buffer = Buffer.alloc(0);
  private open: { tag: string; sizes: number[]; parts: Buffer[]; part: Buffer[]; got: number } | null = null;

  constructor(private readonly prefix: string) {}

  /** The chunk's output to keep (frames and their header lines taken out). */
  push(chunk: Buffer): Buffer {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    const kept: Buffer[] = [];
    while (buf.length) {
      if (this.open) {
        buf = this.fill(this.open, buf);
        continue;
      }
      const nl = buf.indexOf(10);
      if (nl < 0) {
        // a partial line is held back only while it may still become a header
        const head = buf.subarray(0, this.prefix.length).toString("latin1");
        if (this.prefix.startsWith(head)) this.pending = buf;
        else kept.push(buf);
        break;
      }
      const header = /^(\S+) FRAME((?: \d+)+)$/.exec(buf.subarray(0, nl).toString("latin1"));
      if (header && header[1]!.startsWith(this.prefix)) {
        const sizes = header[2]!.trim().split(" ").map(Number);
        this.open = { tag: header[1]!, sizes, parts: [], part: [], got: 0 };
        this.fill(this.open, Buffer.alloc(0));
      } else {
        kept.push(buf.subarray(0, nl + 1));
      }
      buf = buf.subarray(nl + 1);
    }
    return kept.length === 1 ? kept[0]! : Buffer.concat(kept);
  }

  /** Output held back at the end (a partial line that never became a header). */
  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }

  private fill(f: NonNullable<OutputFrames["open"]>, buf: Buffer): Buffer {
    while (f.parts.length < f.sizes.length) {
      const need = f.sizes[f.parts.length]! - f.got;
      const take = buf.subarray(0, need);
      f.part.push(take);
      f.got += take.length;
      buf = buf.subarray(take.length);
      if (f.got < f.sizes[f.parts.length]!) return buf;
      f.parts.push(Buffer.concat(f.part));
      f.part = [];
      f.got = 0;
    }
    this.frames.set(f.tag, f.parts);
    this.open = null;
    return buf;
  }
}
