/**
 * The images a proposal names must be on the workers' engine or pullable
 * (SPEC §8): checked on upload, on the site's engine (the embedded workers'
 * and `chainswe worker`'s on this machine). An image the engine has neither
 * locally nor from a registry refuses the proposal, named with its chains.
 */
import { assertEngine, ensureImage } from "@/evaluator/sandbox";
import { EnvironmentError } from "@/core/errors";

/** Answers the images of `images` the engine has not and cannot pull. Throws EnvironmentError when no engine answers. */
export async function missingImages(images: string[]): Promise<string[]> {
  await assertEngine();
  const missing: string[] = [];
  for (const image of [...new Set(images)]) {
    try {
      await ensureImage(image);
    } catch (e) {
      if (!(e instanceof EnvironmentError)) throw e;
      missing.push(image);
    }
  }
  return missing;
}
