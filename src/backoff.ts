/** Delays between attempts and the abortable wait that spends them. */

/** Exponential backoff with "equal jitter": half fixed, half random, so retries spread out. */
export function backoffDelay(retry: number, baseDelayMs: number, maxDelayMs: number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/**
 * The wait a `Retry-After` header asks for, in ms, or undefined when absent or unreadable.
 * The service sends whole seconds and may send 0, which means "about a second" (its window is
 * one second long); an HTTP date is honoured too.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
  if (Number.isNaN(ms)) return undefined;
  return Math.max(ms, 1000);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
