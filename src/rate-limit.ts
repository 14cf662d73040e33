/**
 * PLACEHOLDER (minimal, so the client compiles): the rate-limit helper replaces this module.
 * Only the option interface and the layer factory signature are the contract.
 */
import type { TransportLayer } from "./transport.js";

export interface RateLimitOptions {
  perSecond?: number;
  perHour?: number;
  redis?: unknown;
}

/** Placeholder: passes every call straight to the next transport; close() has nothing to release. */
export function rateLimitLayer(
  _token: string,
  _options: RateLimitOptions,
): TransportLayer & { close(): Promise<void> } {
  const layer: TransportLayer = (next) => next;
  return Object.assign(layer, { close: async () => {} });
}
