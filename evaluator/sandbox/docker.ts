/** The Docker engine connection and image availability. */
import Docker from "dockerode";
import { env } from "@/env";
import { EnvironmentError, coerceError } from "@/core/errors";

let client: Docker | undefined;

/** dockerode honours DOCKER_HOST (unix:// or tcp://) when given no options. */
export function docker(): Docker {
  client ??= new Docker();
  return client;
}

export function engineAddress(): string {
  return env().DOCKER_HOST ?? "unix:///var/run/docker.sock";
}

export async function assertEngine(): Promise<void> {
  try {
    await docker().ping();
  } catch (e) {
    throw new EnvironmentError(`Docker engine not reachable at ${engineAddress()}: ${coerceError(e).message}`);
  }
}

/** Socket errors that mean no engine answers at all (not a problem with one image). */
const ENGINE_DOWN = new Set(["ENOENT", "ECONNREFUSED", "EACCES", "ETIMEDOUT", "EHOSTUNREACH"]);

export async function imageExists(image: string): Promise<boolean> {
  try {
    await docker().getImage(image).inspect();
    return true;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return false;
    if (ENGINE_DOWN.has((e as { code?: string }).code ?? "")) {
      throw new EnvironmentError(`Docker engine not reachable at ${engineAddress()}: ${coerceError(e).message}`);
    }
    throw new EnvironmentError(`cannot inspect image ${image}: ${coerceError(e).message}`);
  }
}

/** Uses the local image, else pulls it; a clear error names the image when neither works. */
export async function ensureImage(image: string): Promise<void> {
  if (await imageExists(image)) return;
  try {
    const stream = await docker().pull(image);
    await new Promise<void>((resolve, reject) =>
      docker().modem.followProgress(stream, (err: Error | null) => (err ? reject(err) : resolve())),
    );
  } catch (e) {
    throw new EnvironmentError(
      `image ${image} is not available locally and could not be pulled: ${coerceError(e).message}`,
    );
  }
  if (!(await imageExists(image))) throw new EnvironmentError(`image ${image} missing after pull`);
}
