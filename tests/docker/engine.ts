/**
 * The engine as the Docker tests see it. It can hold sandboxes no test of this
 * file made (a run killed earlier, a demo site or another test run beside it):
 * "no container left" means none of those this file made, found by the tag
 * tests/docker/setup.ts gives it.
 */
import { docker } from "@/evaluator/sandbox";

/** Ids of the sandbox containers this test file made, with `labels` too. */
export async function ownSandboxes(...labels: string[]): Promise<string[]> {
  const tag = process.env.CHAINSWE_SANDBOX_TAG;
  if (!tag) throw new Error("CHAINSWE_SANDBOX_TAG is not set: tests/docker/setup.ts is the docker project's setup file");
  const list = await docker().listContainers({ all: true, filters: { label: ["chainswe.sandbox=1", `chainswe.tag=${tag}`, ...labels] } });
  return list.map((c) => c.Id);
}
