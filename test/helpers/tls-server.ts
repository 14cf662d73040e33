/**
 * An https:// API on loopback with the suite's test certificate (for the name seqera.test, in
 * test/reliability/tls): it answers every request with a service-info body and records each
 * one's URL and Authorization. Only a process given TLS_CERT (NODE_EXTRA_CA_CERTS) trusts it.
 */
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const TLS = fileURLToPath(new URL("../reliability/tls/", import.meta.url));
export const TLS_CERT = `${TLS}cert.pem`;
/** What the server answers. */
export const TLS_ANSWER = { serviceInfo: { version: "tls" } };

export interface TlsServer {
  port: number;
  seen: { url?: string; authorization?: string }[];
  close(): void;
}

export async function startTlsServer(): Promise<TlsServer> {
  const seen: TlsServer["seen"] = [];
  const options = { key: await readFile(`${TLS}key.pem`), cert: await readFile(TLS_CERT) };
  const server = createServer(options, (req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(TLS_ANSWER));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
