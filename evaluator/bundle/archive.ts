/** A bundle's files as one gzipped tar archive, and back. */
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { filesOfTar, tarOf } from "@/evaluator/sandbox/tar";
import { InputError } from "@/lib/errors";

export async function bundleArchive(files: Map<string, Buffer>): Promise<Buffer> {
  return gzipSync(await tarOf(Object.fromEntries(files)));
}

/** The files of a bundle archive; a file that is not one is an input error naming it. */
export async function readBundle(path: string): Promise<Map<string, Buffer>> {
  const data = await readFile(path);
  try {
    return await filesOfTar(Readable.from([gunzipSync(data)]));
  } catch (e) {
    throw new InputError("verify", [{ line: 0, field: "BUNDLE", message: `${path} is not a bundle (a .tar.gz from chainswe bundle or the portal): ${(e as Error).message}` }]);
  }
}
