/**
 * Trajectories uploaded with a submission (SPEC §7 "Trajectories"): the
 * directory `chainswe rollout` writes (`<chain>/<order>.log` and
 * `<order>.json`, docs/ROLLOUT.md) as a tar or tar.gz archive.
 *
 * Invariants: the archive is read as a stream and never written to disk, so
 * no entry name reaches the file system; the unpacked tar stream (headers
 * included) counts against one budget, so a compression bomb stops at it;
 * only regular files are read; an upload's archive is read and checked on
 * the upload-checking thread (uploadedTrajectories). Each bug's log is parsed
 * into its timeline and scanned for shortcuts here, once, and what the pages
 * need is stored beside the log.
 */
import { createReadStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as tar from "tar-stream";
import { archiveEntryPath } from "@/evaluator/sandbox/tar";
import { formatBytes } from "@/core/format";
import { runOffThread } from "@/lib/submissions/predictions-off-thread";
import { pathSegment } from "@/core/trajectory/layout";
import { z } from "zod";
import { hiddenTestNames, scanShortcuts, shortcutSummary, storedHits, type ShortcutHit, type ShortcutSummary } from "@/core/trajectory/shortcuts";
import { itemCount, parseTimeline, stepCount, timelinePages, type TimelinePageStart } from "@/core/trajectory/timeline";
import { FieldError, LimitError } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import { trajectoryOutcomeSchema, type TrajectoryOutcome } from "@/core/schemas/trajectory";
import { fileArchiveKind } from "@/lib/submissions/archive-kind";
import { TRAJECTORIES_FIELD } from "@/lib/submissions/request";
import type { StagedText } from "@/lib/submissions/staged-texts";

/** One bug's log (the failure page shows its first items; its raw route the whole). */
export const MAX_TRAJECTORY_LOG_BYTES = 4 * 1024 * 1024;

export type TrajectoryFile = { path: string; text: string };
export type TrajectoryArchive = { files: TrajectoryFile[]; warnings: string[] };

/** `<anything>/<chain dir>/<order>.log|json`, not inside a `memory/` directory. */
export const TRAJECTORY_ENTRY = /(?:^|\/)([^/]+)\/([1-9][0-9]{0,5})\.(log|json)$/;

const fail = (message: string) => new FieldError(TRAJECTORIES_FIELD, message);

/** PostgreSQL text cannot hold NUL; a log may. */
export const storable = (text: string) => text.replaceAll("\u0000", "\u2400");

/**
 * Reads the archive at `file` (`name`: what the user called it) within an
 * unpacked budget. Throws FieldError naming the archive or the entry, or a 413
 * LimitError when the budget is spent; answers the files that may be
 * trajectories and warnings for the entries left out (a few named, the rest counted).
 */
export async function readTrajectoryArchive(file: string, name: string, maxUnpackedBytes: number): Promise<TrajectoryArchive> {
  const kind = await fileArchiveKind(file);
  if (kind !== "gzip" && kind !== "tar") {
    throw fail(`${name} is ${kind ? `a ${kind} file` : "not an archive"}: send the rollout's trajectories directory as a .tar or .tar.gz (tar czf t.tgz -C preds.trajectories .)`);
  }
  const files: TrajectoryFile[] = [];
  const leftOut: string[] = [];
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const path = archiveEntryPath(header.name);
    const wanted = header.type === "file" && TRAJECTORY_ENTRY.test(path) && !/(?:^|\/)memory\//.test(path);
    if (header.type !== "directory" && !wanted && !/(?:^|\/)memory(?:\/|$)/.test(path)) leftOut.push(path);
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (data: unknown) => {
      const chunk = data as Buffer;
      size += chunk.length;
      if (wanted && path.endsWith(".log") && size > MAX_TRAJECTORY_LOG_BYTES) return stream.destroy(fail(`${path}: larger than the ${formatBytes(MAX_TRAJECTORY_LOG_BYTES)} limit for one bug's log`));
      if (wanted) chunks.push(chunk);
    });
    stream.on("end", () => {
      if (wanted) files.push({ path, text: storable(Buffer.concat(chunks).toString("utf8")) });
      next();
    });
    stream.on("error", (e) => extract.destroy(e));
  });
  // the budget holds for the whole unpacked tar stream, headers included: a bomb of empty entries stops at it too
  let unpacked = 0;
  const budget = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length;
      if (unpacked > maxUnpackedBytes) done(new LimitError(`${name}: unpacks to more than the ${formatBytes(maxUnpackedBytes)} limit for trajectories`, 413, TRAJECTORIES_FIELD));
      else done(null, chunk);
    },
  });
  const source: Readable[] = [createReadStream(file)];
  if (kind === "gzip") source.push(createGunzip());
  try {
    await pipeline([...source, budget, extract] as unknown as [Readable, NodeJS.WritableStream]);
  } catch (e) {
    if (e instanceof FieldError || e instanceof LimitError) throw e;
    throw fail(`${name} cannot be read as a ${kind === "gzip" ? "tar.gz" : "tar"} archive (${(e as Error).message})`);
  }
  // named one by one up to a few: an archive of a million stray entries is not a million warnings
  const warnings = leftOut.slice(0, 10).map((path) => `${name}: ${path} left out (not <chain>/<order>.log or .json)`);
  if (leftOut.length > 10) warnings.push(`${name}: ${leftOut.length - 10} more entries left out`);
  return { files, warnings };
}

/** Items per page of a timeline (the failure page's `?page=`). */
export const TIMELINE_PAGE_ITEMS = 100;

export const timelinePagesSchema = z.array(z.object({ at: z.number().int().nonnegative(), line: z.number().int().positive(), calls: z.number().int().nonnegative(), step: z.number().int().positive(), title: z.string().nullable() }));

export type TrajectoryRow = {
  continuousId: string;
  order: number;
  /** an upload's, staged by the upload-checking thread (uploadedTrajectories) */
  log: string | StagedText;
  outcome: TrajectoryOutcome | null;
  /** storedHits of the scan, and how many the scan found */
  shortcuts: ShortcutHit[];
  shortcutHits: number;
  steps: number;
  calls: number;
  items: number;
  /** where each page of TIMELINE_PAGE_ITEMS items starts in the log */
  pages: TimelinePageStart[];
};

export type CheckedTrajectories = { rows: TrajectoryRow[]; summary: ShortcutSummary; warnings: string[] };

/**
 * Matches the archive's files to the submission's chains and bugs and reads
 * each bug's timeline and shortcuts. Pure. Throws FieldError naming the entry
 * for a directory that is no chain of the version, a position the chain does
 * not have, an outcome that is not the rollout's, or an outcome without its
 * log; a chain of the version that this submission does not grade is left out
 * with a warning.
 */
export function checkTrajectories(archive: TrajectoryArchive, chains: Chain[], chainIds: string[], version: string): CheckedTrajectories {
  const bySegment = new Map(chains.map((c) => [pathSegment(c.continuous_id), c]));
  const graded = new Set(chainIds);
  const warnings = [...archive.warnings];
  const bugs = new Map<string, { chain: Chain; order: number; log?: TrajectoryFile; outcome?: TrajectoryFile }>();
  const skipped = new Set<string>();
  for (const file of archive.files) {
    const [, dir, orderText, ext] = TRAJECTORY_ENTRY.exec(file.path)!;
    const chain = bySegment.get(dir!);
    if (!chain) throw fail(`${file.path}: dataset version ${version} has no chain stored in a directory named ${dir} (the rollout names a chain's directory after its continuous_id)`);
    if (!graded.has(chain.continuous_id)) {
      skipped.add(chain.continuous_id);
      continue;
    }
    const order = Number(orderText);
    if (order > chain.bug_fixes.length) throw fail(`${file.path}: chain ${chain.continuous_id} has ${chain.bug_fixes.length} bugs, no position ${order}`);
    const key = `${chain.continuous_id}\u0000${order}`;
    const bug = bugs.get(key) ?? { chain, order };
    if (bug[ext === "log" ? "log" : "outcome"]) throw fail(`${file.path}: sent twice in the archive`);
    bug[ext === "log" ? "log" : "outcome"] = file;
    bugs.set(key, bug);
  }
  for (const id of skipped) warnings.push(`trajectories of chain ${id} left out: this submission does not grade it`);
  const rows = [...bugs.values()].map(({ chain, order, log, outcome }): TrajectoryRow => {
    if (!log) throw fail(`${outcome!.path}: no ${order}.log beside it`);
    const parsed = outcome ? parseOutcome(outcome, chain, order) : null;
    const bug = chain.bug_fixes[order - 1]!;
    const timeline = parseTimeline(log.text);
    const hits = scanShortcuts(timeline, hiddenTestNames(bug.test_patch, bug.FAIL_TO_PASS));
    return {
      continuousId: chain.continuous_id,
      order,
      log: log.text,
      outcome: parsed,
      shortcuts: storedHits(hits),
      shortcutHits: hits.length,
      steps: stepCount(timeline),
      calls: timeline.calls.length,
      items: itemCount(timeline),
      pages: timelinePages(log.text, timeline, TIMELINE_PAGE_ITEMS),
    };
  });
  rows.sort((a, b) => a.continuousId.localeCompare(b.continuousId) || a.order - b.order);
  return { rows, summary: shortcutSummary(rows.map((r) => r.shortcuts)), warnings };
}

/** How a submission's trajectories are checked against its chains: an upload's off the request thread, the demo's in process. */
export type TrajectoryCheck = (chains: Chain[], chainIds: string[], version: string) => Promise<CheckedTrajectories>;

/**
 * An uploaded archive, read and checked on the upload-checking thread
 * (runOffThread): a hostile archive (a million tiny calls, megabyte-long
 * commands) costs that thread, never the requests of others. What comes back
 * is small (counts, capped hits, page starts): the thread writes the logs to
 * the database at `stageTo` (lib/submissions/staged-texts.ts).
 */
export const uploadedTrajectories =
  (file: { path: string; name: string }, maxBytes: number, stageTo?: string): TrajectoryCheck =>
  async (chains, chainIds, version) =>
    (await runOffThread("trajectories", { path: file.path, name: file.name, maxBytes, chains, chainIds, version, stageTo }, TRAJECTORIES_FIELD)) as CheckedTrajectories;

/** An archive already read (the demo's shipped trajectories), checked in process. */
export const readTrajectories =
  (archive: TrajectoryArchive): TrajectoryCheck =>
  async (chains, chainIds, version) =>
    checkTrajectories(archive, chains, chainIds, version);

function parseOutcome(file: TrajectoryFile, chain: Chain, order: number): TrajectoryOutcome {
  let json: unknown;
  try {
    json = JSON.parse(file.text);
  } catch (e) {
    throw fail(`${file.path}: not JSON (${(e as Error).message})`);
  }
  const parsed = trajectoryOutcomeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw fail(`${file.path}: field ${issue.path.join(".") || "(whole file)"}: ${issue.message}`);
  }
  const o = parsed.data;
  if (o.continuous_id !== chain.continuous_id || o.order !== order) {
    throw fail(`${file.path}: says it is bug ${o.order} of ${o.continuous_id}, but its path is bug ${order} of ${chain.continuous_id}`);
  }
  return o;
}
