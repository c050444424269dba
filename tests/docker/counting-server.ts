/** A TCP server on the host that counts connections: what the network tests ask code in a container to reach. */
import { createServer } from "node:net";
import { beforeAll } from "vitest";

/** Listens on `host` for the enclosing describe block; `port` and `connections` are read once it is up. */
export function useCountingServer(host: string): { port: () => number; connections: () => number } {
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    const server = createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((r) => server.listen(0, host, r));
    port = (server.address() as { port: number }).port;
    return () => new Promise<void>((r) => server.close(() => r()));
  });
  return { port: () => port, connections: () => connections };
}
