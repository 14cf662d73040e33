import { createServer } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A loopback port nothing listens on now (bound, then released): for a server to start on, or
 * for a connection to be refused. No vitest import: child-process fixtures and benches use it.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
