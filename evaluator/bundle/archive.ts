/** A bundle's files as one gzipped tar archive, and back. */
import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { filesOfTar, tarOf } from "@/evaluator/sandbox/tar";
import { InputError } from "@/core/errors";

/** Inflated size a bundle may have (its logs are capped per bug; 1,000 bugs of a few MB fit). */
const MAX_BUNDLE_BYTES = 2 * 1024 ** 3;

export async function bundleArchive(files: Map<string, Buffer>): Promise<Buffer> {
  return gzipSync(await tarOf(Object.fromEntries(files)));
}

/** The files of a bundle archive; a file that is not one is an input error naming it. */
export async function readBundle(path: string): Promise<Map<string, Buffer>> {
  const data = await readFile(path);
  try {
    // a bundle from elsewhere is read bounded: a small file that inflates without end is refused, not held
    return await filesOfTar(Readable.from([gunzipSync(data, { maxOutputLength: MAX_BUNDLE_BYTES })]));
  } catch (e) {
    throw new InputError("verify", [{ line: 0, field: "BUNDLE", message: `${path} is not a bundle (a .tar.gz from chainswe bundle or the portal): ${(e as Error).message}` }]);
  }
}
