/** What the engine at hand knows of the chains' images, for environment.json. */
import { docker } from "@/evaluator/sandbox/docker";
import type { BundleEnvironment } from "./bundle";

/** Each image's id and registry digests where the local engine has it; null and [] where it has not (or no engine answers). */
export async function imageFacts(images: string[]): Promise<BundleEnvironment["images"]> {
  return Promise.all(
    [...new Set(images)].sort().map(async (image) => {
      try {
        const info = await docker().getImage(image).inspect();
        return { image, id: info.Id, digests: info.RepoDigests ?? [] };
      } catch {
        return { image, id: null, digests: [] };
      }
    }),
  );
}
