/**
 * For the CLI's tests: `chainswe …args` run in this process through main(),
 * as a user would type it, with what it writes caught.
 */
import { vi } from "vitest";
import { main } from "./main";

/** Runs `chainswe …args` in this process; its exit code (reset after), stderr and stdout. */
export async function chainsweInProcess(...args: string[]) {
  const err: string[] = [];
  const out: string[] = [];
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s) => (err.push(String(s)), true));
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s) => (out.push(String(s)), true));
  try {
    await main(["node", "chainswe", ...args]);
  } finally {
    e.mockRestore();
    o.mockRestore();
  }
  const code = process.exitCode;
  process.exitCode = undefined;
  return { code, stderr: err.join(""), stdout: out.join("") };
}
