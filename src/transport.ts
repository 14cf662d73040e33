/**
 * The former transport-layer seam, kept only for rateLimitLayer (src/rate-limit.ts) and its tests
 * (test/limits/stack.ts) until the limiter branch moves them to createRateLimiter. The client
 * does not use it: its call path is client.ts → attempt.ts. Delete with rateLimitLayer.
 */
import type { Logger } from "./log.js";

export type { Logger };

export interface CallContext {
  method: string;
  path: string;
  operationId: string;
  signal?: AbortSignal;
  retryUnsafe: boolean;
  attempt: number;
  /** Time the current attempt waited for the limiter; the rate-limit layer sets it. */
  limiterWaitMs: number;
  timeoutMs?: number;
  logger?: Logger;
}

export type Transport = (request: Request, context: CallContext) => Promise<Response>;

/** A layer wraps the transport under it. */
export type TransportLayer = (next: Transport) => Transport;

/** Composes layers outermost first: compose([a, b], base) is a(b(base)). */
export function composeTransport(layers: readonly TransportLayer[], base: Transport): Transport {
  return layers.reduceRight<Transport>((next, layer) => layer(next), base);
}
