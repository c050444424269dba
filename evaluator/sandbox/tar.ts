import tar from "tar-stream";

/** A tar archive of absolute paths → contents. */
export async function tarOf(files: Record<string, string | Buffer>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [path, content] of Object.entries(files)) {
    pack.entry({ name: path.replace(/^\/+/, ""), mode: 0o644 }, content);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
