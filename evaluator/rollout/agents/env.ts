/**
 * The agent side of the rollout contract (docs/ROLLOUT.md): what a reference
 * agent reads from its environment, parsed once. The reference agents are
 * separate programs the harness starts, so they read their own environment.
 */
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { z } from "zod";
import type { AgentMetrics } from "../contract";

export const agentEnvSchema = z.object({
  CHAINSWE_EXEC: z.string().min(1),
  CHAINSWE_CHAIN_ID: z.string().min(1),
  CHAINSWE_ORDER: z.coerce.number().int().positive(),
  CHAINSWE_METRICS_FILE: z.string().min(1),
  CHAINSWE_MEMORY_DIR: z.string().min(1),
});
export type AgentEnv = z.infer<typeof agentEnvSchema>;

export function readAgentEnv(env: NodeJS.ProcessEnv = process.env): AgentEnv {
  const parsed = agentEnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`not run by chainswe rollout: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}

/** Runs a command in the container through $CHAINSWE_EXEC, `input` on its stdin; resolves to its exit code. */
export function execInContainer(env: AgentEnv, command: string, input = ""): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(env.CHAINSWE_EXEC, [command], { stdio: ["pipe", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? -1));
    child.stdin.on("error", () => undefined);
    child.stdin.end(input);
  });
}

export async function writeMetrics(env: AgentEnv, metrics: AgentMetrics): Promise<void> {
  await writeFile(env.CHAINSWE_METRICS_FILE, JSON.stringify(metrics));
}
