/** Benchmark construction commands (paper §3.2–3.3; docs/MINING.md): `mine` and `select`. */
import type { Command } from "commander";
import { registerMine } from "./mine";
import { registerSelect } from "./select";

export function registerMining(program: Command): void {
  registerMine(program);
  registerSelect(program);
}
