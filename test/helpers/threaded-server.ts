/**
 * The "threaded" fixture: a strict sliding-window server we did not design, Python's standard
 * library ThreadingHTTPServer at its defaults (threaded-server.py: a thread per connection, one
 * global lock, a listen backlog of 5, one connection per request). It offers strict-server.ts's
 * `StrictServer` interface; its arrivals come on its stdout, so call `flush()` before reading
 * them: every request answered by then is in. Needs `python3` (3.7 or later).
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { arrivalsView, Flushes } from "./fixture-process.js";
import type { Arrival, StrictServer } from "./strict-server.js";

/** The server process's script: run with `python3`, its stdin a pipe (see its header). */
export const THREADED_SCRIPT = fileURLToPath(new URL("./threaded-server.py", import.meta.url));

export interface ThreadedServerOptions {
  perSecond?: number;
  windowMs?: number;
  /** An answer (429 included) waits uniform [backwardMinMs, this) ms after its stamp. */
  backwardMaxMs?: number;
  /** The least an answer waits after its stamp; default 0. */
  backwardMinMs?: number;
  /**
   * For this long after it listens, its backlog is kept full: every connection made then has
   * its SYN dropped, and connects on the client's retransmission a second later. Default 0.
   */
  backlogFullMs?: number;
}

export interface ThreadedServer extends StrictServer {
  pid: number;
  /** Resolves once every arrival stamped so far is in `arrivals`. */
  flush(): Promise<void>;
}

/** Fails loudly, saying what to install, where python3 is missing. */
export function requirePython(): void {
  if (spawnSync("python3", ["--version"]).status !== 0) {
    throw new Error(
      "python3 is not installed: the threaded-server fixture needs it (apt-get install python3)",
    );
  }
}

export async function startThreadedServer(
  options: ThreadedServerOptions = {},
): Promise<ThreadedServer> {
  requirePython();
  const windowMs = options.windowMs ?? 1000;
  const child = spawn("python3", ["-u", THREADED_SCRIPT], {
    stdio: ["pipe", "pipe", "inherit"],
    env: {
      ...process.env,
      PER_SECOND: String(options.perSecond ?? 20),
      WINDOW_MS: String(windowMs),
      BACKWARD_MAX_MS: String(options.backwardMaxMs ?? 0),
      BACKWARD_MIN_MS: String(options.backwardMinMs ?? 0),
      BACKLOG_FULL_MS: String(options.backlogFullMs ?? 0),
    },
  });
  const exit = once(child, "exit");
  const arrivals: Arrival[] = [];
  const running = () => child.exitCode === null && child.signalCode === null;
  const flushes = new Flushes("threaded server", exit, running, (id) =>
    child.stdin!.write(`flush ${id}\n`),
  );
  const ready = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as { ready?: string; arrival?: Arrival; flushed?: number };
      if (message.arrival) arrivals.push(message.arrival);
      else if (message.ready) resolve(message.ready);
      else if (message.flushed !== undefined) flushes.done(message.flushed);
    });
    void exit.then(([code, signal]) =>
      reject(new Error(`threaded server exited (${code ?? signal}) before it listened`)),
    );
  });
  const url = await ready;

  return {
    url,
    pid: child.pid!,
    ...arrivalsView(arrivals, windowMs),
    flush: () => flushes.flush(),
    close: async () => {
      if (!running()) return;
      // Its stdin closing ends it; SIGKILL if it hangs.
      child.stdin!.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exit.finally(() => clearTimeout(timer));
    },
  };
}
