#!/usr/bin/env node
// The site: Next.js behind ChainSWE's request gate (server.ts), run through tsx
// with the project's tsconfig. `node bin/site.mjs -p PORT -H HOST`, after `next build`.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

const root = new URL("../", import.meta.url);
process.chdir(fileURLToPath(root));
register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
const { startSite } = await import("../server.ts");
await startSite(process.argv.slice(2));
