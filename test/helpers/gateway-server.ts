/**
 * The "gateway" fixture: a strict sliding-window server of another design than
 * strict-server.ts's, with real parallelism and the machine's own scheduling jitter in its
 * stamps (the process is gateway-server.mjs: a cluster of worker processes that parse each
 * request in full, then one primary thread that stamps it, as a busy gateway behind one global
 * lock). It offers strict-server.ts's `StrictServer` interface; its arrivals come over IPC, so
 * call `flush()` before reading them: every request answered by then is in.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { arrivalsView, Flushes } from "./fixture-process.js";
import type { Arrival, StrictServer } from "./strict-server.js";

/** The server process's script: run with `node`, an IPC channel open (see its header). */
export const GATEWAY_SCRIPT = fileURLToPath(new URL("./gateway-server.mjs", import.meta.url));

export interface GatewayServerOptions {
  perSecond?: number;
  windowMs?: number;
  /** Worker processes parsing requests; default 4. */
  workers?: number;
  /** CPU ms a worker spends on each request after reading it (a busier gateway); default 0. */
  parseWorkMs?: number;
  /** A request waits uniform [0, this) ms after it was parsed, before it is stamped. */
  forwardMaxMs?: number;
  /** An answer (429 included) waits uniform [backwardMinMs, this) ms after its stamp. */
  backwardMaxMs?: number;
  /** The least an answer waits after its stamp; default 0. */
  backwardMinMs?: number;
}

export interface GatewayServer extends StrictServer {
  /** The primary's pid, then the workers'. */
  pids: number[];
  /** Resolves once every arrival stamped so far is in `arrivals`. */
  flush(): Promise<void>;
}

type Message =
  | { type: "ready"; url: string; pids: number[] }
  | { type: "arrival"; arrival: Arrival }
  | { type: "flushed"; id: number };

export async function startGatewayServer(
  options: GatewayServerOptions = {},
): Promise<GatewayServer> {
  const windowMs = options.windowMs ?? 1000;
  const child = spawn(process.execPath, [GATEWAY_SCRIPT], {
    // Its own process group: close() signals the primary and its workers together.
    detached: true,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      PER_SECOND: String(options.perSecond ?? 20),
      WINDOW_MS: String(windowMs),
      WORKERS: String(options.workers ?? 4),
      PARSE_WORK_MS: String(options.parseWorkMs ?? 0),
      FORWARD_MAX_MS: String(options.forwardMaxMs ?? 0),
      BACKWARD_MAX_MS: String(options.backwardMaxMs ?? 0),
      BACKWARD_MIN_MS: String(options.backwardMinMs ?? 0),
    },
  });
  const exit = once(child, "exit");
  const arrivals: Arrival[] = [];
  const flushes = new Flushes(
    "gateway server",
    exit,
    () => child.connected,
    (id) => child.send({ type: "flush", id }),
  );
  const ready = new Promise<{ url: string; pids: number[] }>((resolve, reject) => {
    child.on("message", (message: Message) => {
      if (message.type === "arrival") arrivals.push(message.arrival);
      else if (message.type === "ready") resolve(message);
      else if (message.type === "flushed") flushes.done(message.id);
    });
    void exit.then(([code, signal]) =>
      reject(new Error(`gateway server exited (${code ?? signal}) before it listened`)),
    );
  });
  const { url, pids } = await ready;

  return {
    url,
    pids,
    ...arrivalsView(arrivals, windowMs),
    flush: () => flushes.flush(),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // The primary reaps its workers, then exits; SIGKILL to the group if it hangs.
      process.kill(-child.pid!, "SIGTERM");
      const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 5000);
      await exit.finally(() => clearTimeout(timer));
    },
  };
}
