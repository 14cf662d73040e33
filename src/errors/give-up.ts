/**
 * Why a failure worth retrying went to the caller: data on the error (`SeqeraApiError.giveUp`),
 * told in the terms of each front end (a command line cannot set the retry options).
 */
import type { Front } from "./settings.js";

export interface GiveUp {
  attempts: number;
  elapsedMs: number;
  /**
   * `retryAfter`: the server asked to wait longer than retry.maxDelayMs; `unsafe`: a non-idempotent
   * call is not repeated without retryUnsafe; `maxAttempts`, `maxElapsedMs`: the policy's limits.
   */
  stoppedBy: "retryAfter" | "unsafe" | "maxAttempts" | "maxElapsedMs";
  /** The method of the call (for `unsafe`). */
  method: string;
  /** The limit that stopped it: retry.maxDelayMs, retry.maxAttempts or retry.maxElapsedMs. */
  limit?: number;
  /** For `retryAfter`: the seconds the server asked to wait. */
  retryAfterSeconds?: number;
}

export function giveUpText(giveUp: GiveUp, front: Front): string {
  const { attempts, elapsedMs, limit } = giveUp;
  const tried = `${attempts} attempt${attempts === 1 ? "" : "s"} in ${Math.round(elapsedMs)} ms`;
  const library = front === "library";
  switch (giveUp.stoppedBy) {
    case "retryAfter":
      return library
        ? `gave up after ${tried}: the server asked to wait ${giveUp.retryAfterSeconds} s (Retry-After), more than retry.maxDelayMs (${limit} ms); raise retry.maxDelayMs to wait that long`
        : `gave up after ${tried}: the server asked to wait ${giveUp.retryAfterSeconds} s (Retry-After), longer than the ${limit} ms a retry waits`;
    case "unsafe":
      return `not retried: ${giveUp.method} may have done its work before failing${library ? "; pass retryUnsafe: true on the call if repeating it is safe" : ""}`;
    case "maxAttempts":
      return library
        ? `gave up after ${tried} (retry.maxAttempts is ${limit}); raise it to try longer`
        : `gave up after ${tried}`;
    case "maxElapsedMs":
      return library
        ? `gave up after ${tried}: the next retry would pass retry.maxElapsedMs (${limit} ms); raise it to try longer`
        : `gave up after ${tried}: the next retry would pass ${limit} ms of retries`;
  }
}
