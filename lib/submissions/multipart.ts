/**
 * Reads an upload's multipart body with busboy: the text fields are collected
 * (each bounded), the file parts (a submission's predictions file and optional
 * trajectories archive; a proposal's chains file) are streamed to temp files
 * while their bytes are counted, and going over the limit stops reading at once.
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
export type Upload = { fields: Record<string, string>; files: Partial<Record<string, UploadedFile>> };

/** One upload form: its text fields and its file parts (at most two), the first the main one that errors about the body are blamed on. */
export type MultipartForm = {
  fields: readonly string[];
  /** file part → what a part sent without a file name is called in messages */
  files: Record<string, string>;
  /** which field repeats, its values joined with commas (the others keep their last value, as forms do) */
  repeats?: string;
  /** the files together, in the message of an upload over its limit */
  together: string;
};

export const SUBMISSION_FORM: MultipartForm = {
  fields: FIELD_NAMES,
  files: { [PREDICTIONS_FIELD]: "predictions.jsonl", [TRAJECTORIES_FIELD]: "trajectories.archive" },
  repeats: "chains",
  together: "the predictions file and the trajectories archive together",
};

const partList = (form: MultipartForm) => Object.keys(form.files).join(" and ");

/** The files together over the upload's limit. */
const uploadTooLarge = (form: MultipartForm, maxBytes: number, field: string) => new LimitError(`${form.together} are larger than the ${formatBytes(maxBytes)} limit`, 413, field);

/**
 * Streams the body: text fields are collected, the form's file parts are
 * written to `dir` while their bytes are counted. The files together have one
 * limit (the upload's); going over it stops reading the body at once (the
 * request stream is cancelled).
 */
export function readMultipart(req: Request, dir: string, maxFileBytes: number, form: MultipartForm = SUBMISSION_FORM): Promise<Upload> {
  const contentType = req.headers.get("content-type") ?? "";
  const partNames = Object.keys(form.files);
  const main = partNames[0]!;
  if (!/^multipart\/form-data\b/i.test(contentType) || !req.body) {
    return Promise.reject(new FieldError(main, `send multipart/form-data with the file in a part named ${main}`));
  }
  const body = req.body;
  return new Promise<Upload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: Partial<Record<string, UploadedFile>> = {};
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
      reject(new FieldError(main, `not a readable multipart body (${(e as Error).message})`));
      return;
    }
    parser.on("field", (name, value, info) => {
      if (!form.fields.includes(name)) return fail(new FieldError(name, `unknown field; expected ${form.fields.join(", ")} and the file part(s) ${partList(form)}`));
      if (info.valueTruncated) return fail(new FieldError(name, `longer than ${formatBytes(MAX_FIELD_BYTES)}`));
      // only one field may repeat; the others keep their last value, as forms do
      fields[name] = name === form.repeats && fields[name] ? `${fields[name]},${value}` : value;
    });
    parser.on("file", (name, stream, info) => {
      const slot = partNames.indexOf(name);
      if (slot < 0) {
        stream.resume();
        return fail(new FieldError(name, `unexpected file; send the file part(s) ${partList(form)}`));
      }
      if (files[name]) {
        stream.resume();
        return fail(new FieldError(name, `send one ${name} file`));
      }
      // literal names: a computed one makes the bundler trace the whole project
      const path = slot === 0 ? join(dir, "upload-0") : join(dir, "upload-1");
      const upload = { path, name: info.filename || form.files[name]!, bytes: 0 };
      files[name] = upload;
      stream.on("data", (chunk: Buffer) => {
        upload.bytes += chunk.length;
        filesBytes += chunk.length;
        // the trajectories count against the upload's limit with the predictions
        if (filesBytes > maxFileBytes) fail(slot === 0 && upload.bytes === filesBytes ? tooLarge(maxFileBytes, name) : uploadTooLarge(form, maxFileBytes, name));
      });
      stream.on("limit", () => fail(tooLarge(maxFileBytes, name)));
      const out = createWriteStream(path);
      open.push(stream, out);
      const done = pipeline(stream, out);
      done.catch(fail);
      written.push(done);
    });
    parser.on("filesLimit", () => fail(new FieldError(main, `send at most one file per part: ${partList(form)}`)));
    parser.on("fieldsLimit", () => fail(new FieldError(main, "too many fields")));
    parser.on("partsLimit", () => fail(new FieldError(main, "too many parts")));
    parser.on("error", (e: Error) => fail(new FieldError(main, `malformed multipart body (${e.message})`)));
    parser.on("close", () => {
      Promise.all(written).then(
        () => {
          if (settled) return;
          settled = true;
          resolve({ fields, files });
        },
        fail,
      );
    });
    source.on("error", fail);
    source.pipe(parser);
  });
}
