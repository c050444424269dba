/**
 * The engine as the Docker tests see it. A machine's engine can hold sandboxes
 * no test of this run made (an earlier run killed mid-way, a demo site running
 * beside the tests): "no container left" means none of those this test file made.
 */
import { docker } from "@/evaluator/sandbox";

/** Seconds, like the engine's `Created`: the module loads before any of its tests start a container. */
const loadedAt = Math.floor(Date.now() / 1000);

/** Ids of the sandbox containers (reference copies included) created since this test file loaded. */
export async function sandboxesSinceLoad(...labels: string[]): Promise<string[]> {
  const list = await docker().listContainers({ all: true, filters: { label: ["chainswe.sandbox=1", ...labels] } });
  return list.filter((c) => c.Created >= loadedAt).map((c) => c.Id);
}
