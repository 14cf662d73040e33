/** Child processes for the limits tests and benchmark: fixture callers and a redis-server. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const fixture = `${root}test/fixtures/limits-caller.ts`;

export interface CallerResult {
  ok: number;
  statuses: number[];
  started: number;
  finished: number;
  bottleneckLoaded: boolean;
}

export interface Caller {
  child: ChildProcess;
  /** Resolves once the child printed "ready" (WAIT_GO mode). */
  ready: Promise<void>;
  /** Sends the start line (WAIT_GO mode). */
  go(): void;
  /** Resolves when the child exits by itself, rejects if it is still alive after `limitMs`. */
  exited(limitMs: number): Promise<{ code: number | null; result?: CallerResult; stderr: string }>;
}

export function startCaller(env: Record<string, string>): Caller {
  const child = spawn(tsx, [fixture], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    if (stdout.startsWith("ready\n")) onReady();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  if (env.WAIT_GO !== "1") child.stdin!.end();
  const exit = once(child, "exit") as Promise<[number | null]>;
  return {
    child,
    ready,
    go: () => child.stdin!.end("go\n"),
    exited: async (limitMs) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`child still running after ${limitMs} ms; stderr: ${stderr}`));
        }, limitMs);
      });
      const [code] = await Promise.race([exit, timeout]).finally(() => clearTimeout(timer));
      const line = stdout.split("\n").find((l) => l.startsWith("{"));
      return { code, result: line ? (JSON.parse(line) as CallerResult) : undefined, stderr };
    },
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

/** A throw-away redis-server on loopback, no persistence. */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  child.stdout!.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exit = once(child, "exit");
      child.kill("SIGTERM");
      await exit;
    },
  };
}
