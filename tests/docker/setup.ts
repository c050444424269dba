/**
 * Runs before each Docker test file (vitest setupFiles): a tag of its own that the
 * evaluator puts on every container it starts, in this process and in the CLI and
 * worker processes the file spawns (CHAINSWE_SANDBOX_TAG, env.ts).
 */
import { randomUUID } from "node:crypto";

process.env.CHAINSWE_SANDBOX_TAG = `test-${randomUUID()}`;
