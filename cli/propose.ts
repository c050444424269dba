/**
 * `chainswe propose`: propose chains to a ChainSWE portal (POST /api/v1/proposals)
 * with an API token. The file goes as it is: dataset records, JSON Lines or a
 * JSON array, as `chainswe mine` and `select` write them. Prints every bad
 * record when the portal refuses it; with `--wait`, follows each chain's
 * validation on the portal's workers until none is left validating.
 *
 * Exit codes: 0 accepted (and, with --wait, every chain valid); 1 refused, or
 * a chain refused by validation; 2 a usage problem found before anything was sent.
 */
import { openAsBlob } from "node:fs";
import { basename } from "node:path";
import { Option, type Command } from "commander";
import { z } from "zod";
import { parseOptions, positiveOption, readableFile } from "./options";
import { issueText, readJson, type SubmitIo } from "./submit";

export type ProposeFlags = { server: string; token?: string; datasetVersion: string; wait?: boolean; pollSeconds: string };

export const proposeOptionsSchema = z.object({
  chains: readableFile,
  server: z.url({ protocol: /^https?$/, error: "expected an http(s):// URL" }),
  token: z.string().optional(),
  datasetVersion: z.string().trim().min(1),
  wait: z.boolean().optional(),
  pollSeconds: positiveOption,
});

type Chain = { continuous_id: string; status: string; stage: string; refusal: string | null; validation: { bugs: { order: number; flaky: string[] }[] } | null };

const defaultIo: SubmitIo = {
  fetch: (...a) => fetch(...a),
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

function chainLine(c: Chain): string {
  const flaky = (c.validation?.bugs ?? []).flatMap((b) => b.flaky.map((t) => `bug ${b.order}: ${t}`));
  return `${c.continuous_id}: ${c.stage}${c.refusal ? ` — ${c.refusal.split("\n").join("; ")}` : ""}${flaky.length ? ` (flaky, taken out: ${flaky.join(", ")})` : ""}`;
}

/** Polls the proposal until no chain is validating; 0 when every chain is valid. */
async function follow(base: string, id: string, headers: Record<string, string>, pollMs: number, io: SubmitIo): Promise<number> {
  let last = "";
  for (;;) {
    const res = await io.fetch(`${base}/api/v1/proposals/${encodeURIComponent(id)}`, { headers });
    const body = await readJson<{ chains?: Chain[]; error?: string }>(res);
    if (!res.ok || !body?.chains) {
      io.err(`chainswe propose: polling answered ${res.status}${body?.error ? `: ${body.error}` : ""}\n`);
      return 1;
    }
    const text = body.chains.map(chainLine).join("\n");
    if (text !== last) io.out(`${text}\n`);
    last = text;
    if (body.chains.every((c) => c.status !== "validating")) return body.chains.every((c) => c.status === "valid") ? 0 : 1;
    await io.sleep(pollMs);
  }
}

export async function runPropose(file: string, flags: ProposeFlags, io: SubmitIo = defaultIo): Promise<number> {
  const usage = (message: string) => (io.err(`chainswe propose: ${message}\n`), 2);
  if (!flags.token) return usage("an API token is needed: --token or CHAINSWE_TOKEN (create one on your account page, scope submit)");
  let blob: Blob;
  try {
    blob = await openAsBlob(file, { type: "application/x-ndjson" });
  } catch (e) {
    return usage(`cannot read ${file}: ${(e as Error).message}`);
  }
  const base = flags.server.replace(/\/+$/, "");
  const headers = { authorization: `Bearer ${flags.token}`, accept: "application/json" };
  const form = new FormData();
  form.append("dataset_version", flags.datasetVersion);
  form.append("chains", blob, basename(file));
  const res = await io.fetch(`${base}/api/v1/proposals`, { method: "POST", headers, body: form });
  const body = await readJson<{ id?: string; chains?: number; warnings?: string[]; url?: string; error?: string; issues?: { line: number; field: string; message: string }[] }>(res);
  if (res.status !== 201 || !body?.id) {
    io.err(`chainswe propose: refused (${res.status}): ${body?.error ?? "the portal's answer was not JSON"}\n`);
    for (const issue of body?.issues ?? []) io.err(`  ${issueText(issue)}\n`);
    return 1;
  }
  for (const w of body.warnings ?? []) io.err(`warning: ${w}\n`);
  io.err(`proposed ${body.chains} chain(s); each is validated on the portal's workers, then reviewed\n`);
  io.out(`proposal ${body.id}\n${base}${body.url}\n`);
  return flags.wait ? follow(base, body.id, headers, Number(flags.pollSeconds) * 1000, io) : 0;
}

export function registerPropose(program: Command): void {
  program
    .command("propose <chains>")
    .description("propose chains (dataset records, e.g. from chainswe select) to a ChainSWE portal (POST /api/v1/proposals); --wait follows their validation")
    .requiredOption("--server <url>", "the portal, e.g. https://chainswe.example.org")
    .addOption(new Option("--token <token>", "API token with the submit (and, for --wait, read) scope").env("CHAINSWE_TOKEN"))
    .requiredOption("--dataset-version <version>", "the version the chains are proposed for, e.g. v1")
    .option("--wait", "poll until every chain's validation ended; exit 0 only if all are valid")
    .option("--poll-seconds <n>", "with --wait, seconds between polls", "2")
    .action(async (file: string, flags: ProposeFlags) => {
      parseOptions("propose", proposeOptionsSchema, { ...flags, chains: file }, ["chains"]);
      process.exitCode = await runPropose(file, flags);
    });
}
