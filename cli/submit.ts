/**
 * `chainswe submit`: upload a predictions file to a ChainSWE portal over its
 * HTTP API (POST /api/v1/submissions) with an API token, streaming the file
 * from disk; prints every bad line when the portal refuses it; with `--wait`,
 * follows the evaluation until it ends. Talks HTTP only: no database here.
 *
 * Exit codes: 0 accepted (and, with --wait, completed); 1 refused, failed or
 * cancelled; 2 a usage problem found before anything was sent.
 */
import { openAsBlob } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename, sep } from "node:path";
import { createGzip } from "node:zlib";
import tarFs from "tar-fs";
import { setTimeout as sleep } from "node:timers/promises";
import { Option, type Command } from "commander";
import { z } from "zod";
import { splitSchema } from "@/core/schemas/columns";
import { fetchFrom } from "./network";
import { modeOption, parseOptions, positiveOption, readableFile } from "./options";

export type SubmitFlags = {
  server: string;
  token?: string;
  system: string;
  mode: string;
  datasetVersion: string;
  meta: string[];
  chains?: string;
  split?: string;
  runOf?: string;
  manifest?: string;
  trajectories?: string;
  trajectoriesPublic?: boolean;
  wait?: boolean;
  pollSeconds: string;
};

/** What the command touches outside itself, so tests can stand in for it. */
export type SubmitIo = {
  fetch: typeof fetch;
  out: (text: string) => void;
  err: (text: string) => void;
  sleep: (ms: number) => Promise<unknown>;
};

const defaultIo: SubmitIo = {
  fetch: (...a) => fetch(...a),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  sleep: (ms) => sleep(ms),
};

type Issue = { line: number; field: string; message: string };
type ErrorBody = { error?: string; field?: string; issues?: Issue[] };
type Created = { id: string; run?: number; chains: number; predictions: number; warnings: string[]; url: string };
type Progress = {
  status: string;
  progress?: { chains: { total: number; done: number; failed: number; cancelled: number }; bugs: { total: number; graded: number; resolved: number } };
};

const collect = (value: string, prior: string[]) => [...prior, value];

/** Checked before anything is sent; the token, `--meta` and the portal's own checks follow in runSubmit. */
export const submitOptionsSchema = z.object({
  predictions: readableFile,
  server: z.url({ protocol: /^https?$/, error: "expected an http(s):// URL" }),
  token: z.string().optional(),
  system: z.string().trim().min(1),
  mode: modeOption,
  datasetVersion: z.string().trim().min(1),
  meta: z.array(z.string().regex(/^[^=]+=/, "expected key=value")),
  chains: z.string().optional(),
  split: splitSchema.optional(),
  runOf: z.string().trim().min(1).optional(),
  manifest: readableFile.optional(),
  trajectories: z.string().min(1).optional(),
  trajectoriesPublic: z.boolean().optional(),
  wait: z.boolean().optional(),
  pollSeconds: positiveOption,
});

/** `--meta key=value` pairs as the metadata object (values stay text), or what is wrong with one. */
export function metaObject(pairs: string[]): { metadata: Record<string, string> } | { error: string } {
  const metadata: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    if (eq <= 0) return { error: `--meta ${pair}: write key=value` };
    metadata[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return { metadata };
}

export const issueText = (i: Issue) => `line ${i.line}${i.field ? `, field ${i.field}` : ""}: ${i.message}`;

export async function readJson<T>(res: Response): Promise<T | null> {
  const text = await res.text();
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

function progressLine(p: Progress): string {
  if (!p.progress) return p.status;
  const { chains, bugs } = p.progress;
  const trouble = [chains.failed && `${chains.failed} failed`, chains.cancelled && `${chains.cancelled} cancelled`].filter(Boolean).join(", ");
  return `${p.status}: chains ${chains.done}/${chains.total} done${trouble ? ` (${trouble})` : ""}; bugs ${bugs.graded}/${bugs.total} graded, ${bugs.resolved} resolved`;
}

const ENDED: Record<string, number> = { completed: 0, failed: 1, cancelled: 1 };

/** Polls the submission until its evaluation ends; the exit code. */
async function follow(base: string, id: string, headers: Record<string, string>, pollMs: number, io: SubmitIo): Promise<number> {
  let last = "";
  let failures = 0;
  for (;;) {
    let res: Response;
    try {
      res = await fetchFrom("the portal", io.fetch, `${base}/api/v1/submissions/${encodeURIComponent(id)}`, { headers });
    } catch (e) {
      // the portal restarting is no reason to give up on an evaluation that goes on
      if (++failures > 30) throw e;
      io.err(`(${(e as Error).message}; retrying)\n`);
      await io.sleep(pollMs);
      continue;
    }
    failures = 0;
    const body = await readJson<Progress & ErrorBody>(res);
    if (!res.ok || !body) {
      io.err(`chainswe submit: polling answered ${res.status}${body?.error ? `: ${body.error}` : ""}\n`);
      return 1;
    }
    const line = progressLine(body);
    if (line !== last) io.out(`${line}\n`);
    last = line;
    const code = ENDED[body.status];
    if (code !== undefined) return code;
    await io.sleep(pollMs);
  }
}

/**
 * The trajectories to send: an archive as it is, or the rollout's directory
 * packed as tar.gz in memory (its `memory/` directories left out: an agent's
 * notes are not its trajectory).
 */
export async function trajectoriesBlob(path: string): Promise<{ blob: Blob; name: string }> {
  if (!(await stat(path)).isDirectory()) return { blob: await openAsBlob(path), name: basename(path) };
  const chunks: Buffer[] = [];
  const packed = tarFs.pack(path, { ignore: (name) => name.split(sep).includes("memory") }).pipe(createGzip());
  for await (const chunk of packed) chunks.push(chunk as Buffer);
  return { blob: new Blob([Buffer.concat(chunks)], { type: "application/gzip" }), name: `${basename(path)}.tar.gz` };
}

/** The command's work; returns the exit code. */
export async function runSubmit(file: string, flags: SubmitFlags, io: SubmitIo = defaultIo): Promise<number> {
  const usage = (message: string) => (io.err(`chainswe submit: ${message}\n`), 2);
  if (!flags.token) return usage("an API token is needed: --token or CHAINSWE_TOKEN (create one on your account page, scope submit)");
  const meta = metaObject(flags.meta);
  if ("error" in meta) return usage(meta.error);
  const pollSeconds = Number(flags.pollSeconds);
  if (!(pollSeconds > 0)) return usage(`--poll-seconds must be a positive number, not "${flags.pollSeconds}"`);
  let blob: Blob;
  try {
    blob = await openAsBlob(file, { type: "application/x-ndjson" });
  } catch (e) {
    return usage(`cannot read ${file}: ${(e as Error).message}`);
  }
  let manifest: string | undefined;
  try {
    manifest = flags.manifest === undefined ? undefined : await readFile(flags.manifest, "utf8");
  } catch (e) {
    return usage(`cannot read ${flags.manifest}: ${(e as Error).message}`);
  }
  let trajectories: { blob: Blob; name: string } | undefined;
  try {
    trajectories = flags.trajectories === undefined ? undefined : await trajectoriesBlob(flags.trajectories);
  } catch (e) {
    return usage(`cannot read --trajectories ${flags.trajectories}: ${(e as Error).message}`);
  }
  const base = flags.server.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${flags.token}`, accept: "application/json" };
  const form = new FormData();
  form.append("system", flags.system);
  form.append("dataset_version", flags.datasetVersion);
  form.append("mode", flags.mode);
  if (flags.meta.length) form.append("metadata", JSON.stringify(meta.metadata));
  if (flags.chains) form.append("chains", flags.chains);
  if (flags.split) form.append("split", flags.split);
  if (flags.runOf) form.append("run_of", flags.runOf);
  // the portal checks it (schema, then the version's rules) and names any bad field
  if (manifest !== undefined) form.append("manifest", manifest);
  if (trajectories) {
    form.append("trajectories_public", String(flags.trajectoriesPublic ?? false));
    form.append("trajectories", trajectories.blob, trajectories.name);
  }
  form.append("predictions", blob, basename(file)); // last, so the portal has the fields before the file streams

  const res = await fetchFrom("the portal", io.fetch, `${base}/api/v1/submissions`, { method: "POST", headers, body: form });
  const body = await readJson<Created & ErrorBody>(res);
  if (res.status !== 201 || !body?.id) {
    io.err(`chainswe submit: refused (${res.status}): ${body?.error ?? "the portal's answer was not JSON"}\n`);
    for (const issue of body?.issues ?? []) io.err(`  ${issueText(issue)}\n`);
    return 1;
  }
  for (const w of body.warnings ?? []) io.err(`warning: ${w}\n`);
  io.err(`queued ${body.chains} chain(s) with ${body.predictions} prediction(s)${body.run && body.run > 1 ? ` as run ${body.run} of its entry` : ""}\n`);
  io.out(`submission ${body.id}\n${base}${body.url}\n`);
  return flags.wait ? follow(base, body.id, headers, pollSeconds * 1000, io) : 0;
}

export function registerSubmit(program: Command): void {
  program
    .command("submit <predictions>")
    .description("upload a predictions file to a ChainSWE portal (POST /api/v1/submissions); --wait follows the evaluation")
    .requiredOption("--server <url>", "the portal, e.g. https://chainswe.example.org")
    .addOption(new Option("--token <token>", "API token with the submit (and, for --wait, read) scope").env("CHAINSWE_TOKEN"))
    .requiredOption("--system <ref>", "one of your team's systems: <team>/<system name> as on its team page, or its id")
    .requiredOption("--mode <mode>", "oracle | seq | seq_mem")
    .requiredOption("--dataset-version <version>", "e.g. v1")
    .option("--meta <key=value>", "metadata shown with the results (repeatable)", collect, [] as string[])
    .option("--chains <ids>", "comma-separated chain ids to grade (default: all)")
    .option("--split <split>", "full (default) or mini: grade the version's Mini split's chains, ranked on the Mini board (SPEC §8)")
    .option("--manifest <file>", "the run manifest, JSON: agent, model, limits, context, memory, what was visible, command (docs/API.md)")
    .option("--trajectories <dir|archive>", "per-bug trajectories: the directory chainswe rollout wrote (packed here), or a .tar.gz of it")
    .option("--trajectories-public", "show the trajectories to everyone once the results are published (default: team and reviewers only)")
    .option("--run-of <submission>", "repeated runs: this file is the next run of that submission's entry (same system, version, mode, chains)")
    .option("--wait", "poll until the evaluation ends; exit 0 only if it completed")
    .option("--poll-seconds <n>", "with --wait, seconds between polls", "2")
    .action(async (file: string, flags: SubmitFlags) => {
      parseOptions("submit", submitOptionsSchema, { ...flags, predictions: file }, ["predictions"]);
      process.exitCode = await runSubmit(file, flags);
    });
}
