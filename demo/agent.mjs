#!/usr/bin/env node
// The demo systems as rollout agents, beside the reference ones (the same
// program, with the `demo` command registered): through tsx with the
// project's tsconfig, from any directory:
//   node demo/agent.mjs demo --dataset demo/dataset.jsonl --system demo-overshoot
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../evaluator/rollout/agents/reference.ts");
const { demoAgentCommand } = await import("./lib/agent.ts");
try {
  await main(process.argv.slice(2), [demoAgentCommand]);
} catch (e) {
  process.stderr.write(`demo agent: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
