/** A loopback server for the benches, in its own process as a real one would be. */
import { spawn } from "node:child_process";
import { once } from "node:events";

/**
 * Answers every request 200 with the JSON `body`. Its work does not share the client's event
 * loop, which made ratios swing between runs when it did.
 */
export async function startAnswerServer(body: unknown): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      "-e",
      `require("node:http").createServer((_, r) => {
         r.writeHead(200, { "content-type": "application/json" });
         r.end(${JSON.stringify(JSON.stringify(body))});
       }).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [port] = (await once(child.stdout!.setEncoding("utf8"), "data")) as [string];
  return { url: `http://127.0.0.1:${port.trim()}`, stop: () => child.kill() };
}
