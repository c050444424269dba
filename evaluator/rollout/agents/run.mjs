#!/usr/bin/env node
// Starts a reference agent (reference.ts) through tsx with the project's
// tsconfig, from any directory: node evaluator/rollout/agents/run.mjs gold --dataset D
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

register({ tsconfig: fileURLToPath(new URL("../../../tsconfig.json", import.meta.url)) });
const { main } = await import("./reference.ts");
try {
  await main(process.argv.slice(2));
} catch (e) {
  process.stderr.write(`reference agent: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
