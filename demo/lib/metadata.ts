/**
 * Made-up but plausible per-bug run metadata for the fictional systems, derived from a
 * hash of (system, mode, instance) so it is identical on every build.
 */
import { createHash } from "node:crypto";
import type { Profile } from "./systems";

export type RunMeta = { cost_usd: number; input_tokens: number; output_tokens: number; peak_context_tokens: number; turns: number };

function pick(seed: Buffer, slot: number, [lo, hi]: [number, number]): number {
  return lo + (seed.readUInt32BE(slot * 4) % (hi - lo + 1));
}

export function runMeta(system: string, mode: string, instanceId: string, profile: Profile): RunMeta {
  const seed = createHash("sha256").update(`${system}|${mode}|${instanceId}`).digest();
  const input = Math.round(pick(seed, 0, profile.inputTokens) / 100) * 100;
  const output = Math.round(pick(seed, 1, profile.outputTokens) / 10) * 10;
  // the largest single request: a fifth to a third of everything read over the run
  const peak = Math.round((input * pick(seed, 2, [20, 33])) / 100 / 100) * 100;
  const cost = (input * profile.usdPerMillionIn + output * profile.usdPerMillionOut) / 1e6;
  return {
    cost_usd: Math.round(cost * 10_000) / 10_000,
    input_tokens: input,
    output_tokens: output,
    peak_context_tokens: peak,
    turns: pick(seed, 3, profile.turns),
  };
}
