/**
 * What the fixtures that run in their own process (gateway-server.ts, threaded-server.ts) share:
 * their arrivals arrive as messages, so a test flushes them (asks the process, which answers
 * after every arrival it stamped so far), and reads them through strict-server.ts's interface.
 */
import { maxInWindow, type Arrival, type StrictServer } from "./strict-server.js";

/** `maxInWindow` and `count` of StrictServer, over arrivals kept as they come. */
export function arrivalsView(
  arrivals: Arrival[],
  windowMs: number,
): Pick<StrictServer, "arrivals" | "maxInWindow" | "count"> {
  return {
    arrivals,
    maxInWindow: (filter = () => true) => maxInWindow(arrivals.filter(filter), windowMs),
    count: (filter) => arrivals.filter(filter).length,
  };
}

/** Flushes of a fixture process: `ask(id)` sends the request, `done(id)` takes its answer. */
export class Flushes {
  private readonly waiting = new Map<number, () => void>();
  private next = 0;

  constructor(
    /** The fixture's name, for errors. */
    private readonly name: string,
    private readonly exit: Promise<unknown[]>,
    private readonly running: () => boolean,
    private readonly ask: (id: number) => void,
  ) {}

  /** The process answered flush `id`. */
  done(id: number): void {
    this.waiting.get(id)?.();
    this.waiting.delete(id);
  }

  /** Resolves once every arrival stamped so far has come; rejects if the process is gone. */
  flush(): Promise<void> {
    if (!this.running()) return Promise.reject(new Error(`${this.name} is not running`));
    const id = this.next++;
    const flushed = new Promise<void>((resolve) => {
      this.waiting.set(id, resolve);
      this.ask(id);
    });
    const died = this.exit.then(([code, signal]) => {
      throw new Error(`${this.name} exited (${code ?? signal}) before the flush`);
    });
    return Promise.race([flushed, died]);
  }
}
