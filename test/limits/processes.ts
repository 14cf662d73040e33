/** Child processes for the limits tests and benchmark: fixture callers and a redis-server. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { freePort } from "../helpers/ports.js";
import { maxInWindow } from "../helpers/strict-server.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const tsx = `${root}node_modules/.bin/tsx`;
const fixture = `${root}test/fixtures/limits-caller.ts`;

export interface CallerResult {
  /** The fixture's process (tsx runs it in a child of the one started). */
  pid: number;
  ok: number;
  /** The distinct outcomes: statuses ("200") or error names ("RateLimiterUnavailableError"). */
  statuses: string[];
  /** Call i's outcome; its path was `/call/<pid>/<i>`, where `pid` is the fixture's. */
  outcomes: string[];
  started: number;
  finished: number;
  /** From the start until the last call settled. */
  settledMs: number;
  /** When each attempt's request was written to its socket (ms since the epoch), and its path. */
  sends: { at: number; url: string }[];
  ioredisLoaded: boolean;
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

export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

export interface RedisServer {
  url: string;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT, …) to the server process. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves when the server process has exited (at once if it is not running). */
  exited(): Promise<void>;
  /** Starts a fresh, empty server on the same port (after it exited). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A throw-away redis-server on loopback on a free port, no persistence. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child = await spawnRedis(port);
  const exited = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await once(child, "exit");
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    signal: (signal) => void child.kill(signal),
    exited,
    restart: async () => {
      await exited();
      child = await spawnRedis(port);
    },
    stop: async () => {
      child.kill("SIGCONT");
      child.kill("SIGTERM");
      await exited();
    },
  };
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    // Never a silent skip: a machine without redis-server fails the Redis tests, saying why.
    child.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error(
              "redis-server is not installed: the Redis tests start their own; install it (apt-get install redis-server, as .ci/run does)",
            )
          : error,
      ),
    );
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("Ready to accept connections")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  child.stdout!.resume();
  return child;
}

/** The most requests the callers wrote to their sockets in any sliding `windowMs`, together. */
export function maxSentInWindow(results: CallerResult[], windowMs: number): number {
  const sends = results.flatMap((r) =>
    r.sends.map(({ at, url }) => ({ at, key: "", method: "GET", url, n: 0 })),
  );
  return maxInWindow(sends, windowMs);
}
