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

/**
 * An entry's path as the reader means it: `tar -C dir -c .` names every entry
 * `./a/b`, other packers `a/b`; both are `a/b` here.
 */
export const archiveEntryPath = (name: string) => name.replace(/^(?:\.\/)+/, "");

/** The regular files of a tar stream, by their path in the archive (e.g. `states/1.diff`, also for `./states/1.diff`). */
export async function filesOfTar(stream: NodeJS.ReadableStream): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on("entry", (header, entry, next) => {
      const chunks: Buffer[] = [];
      entry.on("data", (c: unknown) => chunks.push(c as Buffer));
      entry.on("end", () => {
        if (header.type === "file") files.set(archiveEntryPath(header.name), Buffer.concat(chunks));
        next();
      });
      entry.on("error", reject);
    });
    extract.on("finish", resolve);
    extract.on("error", reject);
  });
  stream.pipe(extract);
  await done;
  return files;
}
