/**
 * Reads a submission upload's multipart body with busboy: the text fields are
 * collected (each bounded), the predictions file part (and the optional
 * trajectories archive) is streamed to a temp file while its bytes are
 * counted, and going over its limit stops reading at once.
 */
import { createWriteStream } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { tooLarge } from "@/evaluator/dataset/records";
import { formatBytes } from "@/core/format";
import { FieldError, LimitError } from "@/core/errors";
import { FIELD_NAMES, MAX_FIELD_BYTES, PREDICTIONS_FIELD, TRAJECTORIES_FIELD } from "@/lib/submissions/request";

export type UploadedFile = { path: string; name: string; bytes: number };
export type Upload = { fields: Record<string, string>; file: UploadedFile | null; trajectories: UploadedFile | null };


/** what a file part without a file name is called in messages */
const FALLBACK_NAMES = { [PREDICTIONS_FIELD]: "predictions.jsonl", [TRAJECTORIES_FIELD]: "trajectories.archive" } as const;

/** The predictions file and the trajectories archive together over the upload's limit. */
const uploadTooLarge = (maxBytes: number, field: string) => new LimitError(`the predictions file and the trajectories archive together are larger than the ${formatBytes(maxBytes)} limit`, 413, field);

/**
 * Streams the body: text fields are collected, the `predictions` file part
 * (and the `trajectories` one) is written to `dir` while its bytes are
 * counted. The files together have one limit (the upload's); going over it
 * stops reading the body at once (the request stream is cancelled).
 */
export function readMultipart(req: Request, dir: string, maxFileBytes: number): Promise<Upload> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType) || !req.body) {
    return Promise.reject(new FieldError(PREDICTIONS_FIELD, "send multipart/form-data with the predictions file in a part named predictions"));
  }
  const body = req.body;
  return new Promise<Upload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Partial<Record<typeof PREDICTIONS_FIELD | typeof TRAJECTORIES_FIELD, UploadedFile>> = {};
    const written: Promise<void>[] = [];
    let filesBytes = 0;
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
        limits: { files: 2, fields: 20, parts: 22, fieldSize: MAX_FIELD_BYTES, fileSize: maxFileBytes + 1 },
      });
    } catch (e) {
      reject(new FieldError(PREDICTIONS_FIELD, `not a readable multipart body (${(e as Error).message})`));
      return;
    }
    parser.on("field", (name, value, info) => {
      if (!FIELD_NAMES.includes(name)) return fail(new FieldError(name, `unknown field; expected ${FIELD_NAMES.join(", ")}, the ${PREDICTIONS_FIELD} file and the optional ${TRAJECTORIES_FIELD} archive`));
      if (info.valueTruncated) return fail(new FieldError(name, `longer than ${formatBytes(MAX_FIELD_BYTES)}`));
      // only chains may repeat; the others keep their last value, as forms do
      fields[name] = name === "chains" && fields[name] ? `${fields[name]},${value}` : value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== PREDICTIONS_FIELD && name !== TRAJECTORIES_FIELD) {
        stream.resume();
        return fail(new FieldError(name, `unexpected file; the predictions file goes in the part named ${PREDICTIONS_FIELD}, the trajectories archive in ${TRAJECTORIES_FIELD}`));
      }
      if (files[name]) {
        stream.resume();
        return fail(new FieldError(name, `send one ${name} file`));
      }
      // literal names: a computed one makes the bundler trace the whole project
      const path = name === PREDICTIONS_FIELD ? join(dir, "predictions.jsonl") : join(dir, "trajectories.archive");
      const upload = { path, name: info.filename || FALLBACK_NAMES[name], bytes: 0 };
      files[name] = upload;
      stream.on("data", (chunk: Buffer) => {
        upload.bytes += chunk.length;
        filesBytes += chunk.length;
        // the trajectories count against the upload's limit with the predictions
        if (filesBytes > maxFileBytes) fail(name === PREDICTIONS_FIELD && upload.bytes === filesBytes ? tooLarge(maxFileBytes, name) : uploadTooLarge(maxFileBytes, name));
      });
      stream.on("limit", () => fail(tooLarge(maxFileBytes, name)));
      const out = createWriteStream(path);
      open.push(stream, out);
      const done = pipeline(stream, out);
      done.catch(fail);
      written.push(done);
    });
    parser.on("filesLimit", () => fail(new FieldError(PREDICTIONS_FIELD, `send one predictions file and at most one ${TRAJECTORIES_FIELD} archive`)));
    parser.on("fieldsLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "too many fields")));
    parser.on("partsLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "too many parts")));
    parser.on("error", (e: Error) => fail(new FieldError(PREDICTIONS_FIELD, `malformed multipart body (${e.message})`)));
    parser.on("close", () => {
      Promise.all(written).then(
        () => {
          if (settled) return;
          settled = true;
          resolve({ fields, file: files[PREDICTIONS_FIELD] ?? null, trajectories: files[TRAJECTORIES_FIELD] ?? null });
        },
        fail,
      );
    });
    source.on("error", fail);
    source.pipe(parser);
  });
}
