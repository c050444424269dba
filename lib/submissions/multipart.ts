/**
 * Reads a submission upload's multipart body with busboy: the text fields are
 * collected (each bounded), the one predictions file part is streamed to a
 * temp file while its bytes are counted, and going over the limit stops
 * reading at once.
 */
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { formatBytes, tooLarge } from "@/evaluator/dataset/records";
import { FieldError } from "@/lib/errors";
import { FIELD_NAMES, MAX_FIELD_BYTES, PREDICTIONS_FIELD } from "@/lib/submissions/request";

export type Upload = { fields: Record<string, string>; file: { path: string; name: string; bytes: number } | null };

/**
 * Streams the body: text fields are collected, the one `predictions` file part
 * is written to `dir` while its bytes are counted. Going over the limit stops
 * reading the body at once (the request stream is cancelled).
 */
export function readMultipart(req: Request, dir: string, maxFileBytes: number): Promise<Upload> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType) || !req.body) {
    return Promise.reject(new FieldError(PREDICTIONS_FIELD, "send multipart/form-data with the predictions file in a part named predictions"));
  }
  const body = req.body;
  return new Promise<Upload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: Upload["file"] = null;
    let written: Promise<void> = Promise.resolve();
    let settled = false;
    const open: { destroy(): unknown }[] = []; // the file part and its temp file, closed on refusal
    const source = Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>);
    let parser: busboy.Busboy;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe();
      source.destroy();
      for (const s of open) s.destroy();
      parser?.removeAllListeners();
      parser?.on("error", () => {}); // late errors after the refusal mean nothing
      reject(e);
    };
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        // +1: busboy reports the limit when the count reaches it; a file of exactly the limit is allowed
        limits: { files: 1, fields: 20, parts: 21, fieldSize: MAX_FIELD_BYTES, fileSize: maxFileBytes + 1 },
      });
    } catch (e) {
      reject(new FieldError(PREDICTIONS_FIELD, `not a readable multipart body (${(e as Error).message})`));
      return;
    }
    parser.on("field", (name, value, info) => {
      if (!FIELD_NAMES.includes(name)) return fail(new FieldError(name, `unknown field; expected ${FIELD_NAMES.join(", ")} and the ${PREDICTIONS_FIELD} file`));
      if (info.valueTruncated) return fail(new FieldError(name, `longer than ${formatBytes(MAX_FIELD_BYTES)}`));
      // only chains may repeat; the others keep their last value, as forms do
      fields[name] = name === "chains" && fields[name] ? `${fields[name]},${value}` : value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== PREDICTIONS_FIELD) {
        stream.resume();
        return fail(new FieldError(name, `unexpected file; the predictions file goes in the part named ${PREDICTIONS_FIELD}`));
      }
      const path = join(dir, "predictions.jsonl");
      const upload = { path, name: info.filename || "predictions.jsonl", bytes: 0 };
      file = upload;
      stream.on("data", (chunk: Buffer) => (upload.bytes += chunk.length));
      stream.on("limit", () => fail(tooLarge(maxFileBytes, PREDICTIONS_FIELD)));
      const out = createWriteStream(path);
      open.push(stream, out);
      written = pipeline(stream, out);
      written.catch(fail);
    });
    parser.on("filesLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "send one predictions file")));
    parser.on("fieldsLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "too many fields")));
    parser.on("partsLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "too many parts")));
    parser.on("error", (e: Error) => fail(new FieldError(PREDICTIONS_FIELD, `malformed multipart body (${e.message})`)));
    parser.on("close", () => {
      written.then(
        () => {
          if (settled) return;
          settled = true;
          resolve({ fields, file });
        },
        fail,
      );
    });
    source.on("error", fail);
    source.pipe(parser);
  });
}
