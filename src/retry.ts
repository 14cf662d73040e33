/**
 * PLACEHOLDER (minimal, so the client compiles): the retry helper replaces this module.
 * Only the option interface and the layer factory signature are the contract.
 */
import type { TransportLayer } from "./transport.js";

export interface RetryOptions {
  maxAttempts?: number;
  maxElapsedMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** Placeholder: passes every call straight to the next transport. */
export function retryLayer(_options: RetryOptions): TransportLayer {
  return (next) => next;
}
