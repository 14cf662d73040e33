/**
 * An upload's memory through a proxy, shared by test/reliability/proxy.test.ts (a generous
 * bound) and `npm run bench` (test/bench/proxy-upload.ts, the figures): a loopback sink that
 * counts the bytes it is sent, a CONNECT proxy in front of it that keeps none of them, and the
 * upload itself in a child process (test/fixtures/proxy-upload.ts), whose peak RSS is its own.
 * No vitest import: the bench uses it.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface UploadSink {
  /** The sink's own loopback URL: a call there goes straight, not through the proxy. */
  directUrl: string;
  proxyUrl: string;
  /** Bytes of request bodies the sink has read. */
  received(): number;
  /** The CONNECT targets the proxy was asked for, in order. */
  tunnels: string[];
  /** How much the uploading process's peak RSS grew during an upload of `sizeMb` MB to `baseUrl`. */
  upload(baseUrl: string, sizeMb: number): Promise<number>;
  close(): void;
}

export async function startUploadSink(): Promise<UploadSink> {
  let received = 0;
  const sink = createServer((req, res) => {
    req.on("data", (chunk: Buffer) => (received += chunk.length));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ version: { version: 1 } }));
    });
  });
  sink.listen(0, "127.0.0.1");
  await once(sink, "listening");
  const sinkPort = (sink.address() as AddressInfo).port;
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on("connect", (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? "");
    sockets.add(client);
    client.on("error", () => {});
    const upstream = connect(sinkPort, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    sockets.add(upstream);
    upstream.on("error", () => client.destroy());
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    directUrl: `http://127.0.0.1:${sinkPort}`,
    proxyUrl,
    received: () => received,
    tunnels,
    async upload(baseUrl, sizeMb) {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          "--import",
          "tsx",
          path.join(ROOT, "test", "fixtures", "proxy-upload.ts"),
          baseUrl,
          proxyUrl,
          String(sizeMb),
        ],
        { cwd: ROOT, timeout: 120_000 },
      );
      return (JSON.parse(stdout) as { grewMb: number }).grewMb;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      proxy.close();
      sink.closeAllConnections();
      sink.close();
    },
  };
}
