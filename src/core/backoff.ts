/** Delays between attempts and the abortable wait that spends them. */
import { offAbort, onAbort } from "./abort.js";

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts; leaves no listener behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      if (signal) offAbort(signal, aborted);
      resolve();
    }, ms);
    if (signal) onAbort(signal, aborted);
  });
}
