/**
 * Where a rollout's trajectories directory keeps a chain's files: one
 * directory per chain, named after its continuous_id (docs/ROLLOUT.md). The
 * harness writes by it and the portal reads an upload by it.
 */
import { createHash } from "node:crypto";

/** A name safe as one path segment (chain ids become directory names); distinct ids stay distinct. */
export function pathSegment(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, "_");
  if (safe === id && !/^\.*$/.test(id)) return id;
  return `${safe}-${createHash("sha256").update(id).digest("hex").slice(0, 8)}`;
}
