#!/usr/bin/env node
// The `chainswe` command: runs the TypeScript CLI through tsx, with the
// project's tsconfig (for the @/ alias) wherever it is invoked from.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

const root = new URL("../", import.meta.url);
register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
const { main } = await import("../cli/main.ts");
await main(process.argv);
