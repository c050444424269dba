/**
 * The agent side of the rollout contract (docs/ROLLOUT.md): what a reference
 * agent reads from its environment, parsed once. The reference agents are
 * separate programs the harness starts, so they read their own environment.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { z } from "zod";
import { modeSchema } from "@/core/schemas/prediction";
import type { AgentMetrics } from "../contract";
import { inheritedEnv } from "@/env";

export const agentEnvSchema = z.object({
  CHAINSWE_EXEC: z.string().min(1),
  CHAINSWE_CHAIN_ID: z.string().min(1),
  CHAINSWE_ORDER: z.coerce.number().int().positive(),
  CHAINSWE_METRICS_FILE: z.string().min(1),
  CHAINSWE_PATCH_FILE: z.string().min(1),
  CHAINSWE_MEMORY_DIR: z.string().min(1),
  CHAINSWE_MODE: modeSchema,
});
export type AgentEnv = z.infer<typeof agentEnvSchema>;

export function readAgentEnv(env: NodeJS.ProcessEnv = inheritedEnv()): AgentEnv {
  const parsed = agentEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`not run by chainswe rollout: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}

/**
 * Runs a command in the container through $CHAINSWE_EXEC, `input` on its stdin; its
 * exit code, stdout and stderr. The wrapper logs the call with both streams, so
 * neither is passed on to the agent's own output (the log would hold it twice).
 */
export function execInContainer(env: AgentEnv, command: string, input = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(env.CHAINSWE_EXEC, [command], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

/** As execInContainer; a non-zero exit is an error naming the command. */
export async function mustExec(env: AgentEnv, command: string, input = ""): Promise<string> {
  const r = await execInContainer(env, command, input);
  if (r.code !== 0) throw new Error(`${command} exited ${r.code} in the container${r.stderr.trim() ? `: ${r.stderr.trim().split("\n").at(-1)}` : ""}`);
  return r.stdout;
}

export async function writeMetrics(env: AgentEnv, metrics: AgentMetrics): Promise<void> {
  await writeFile(env.CHAINSWE_METRICS_FILE, JSON.stringify(metrics));
}
