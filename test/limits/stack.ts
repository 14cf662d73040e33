/**
 * The transport stack as the client composes it, over a plain fetch, for the limits tests,
 * their child-process fixtures and the benchmark.
 */
import {
  composeTransport,
  type CallContext,
  type Logger,
  type Transport,
  type TransportLayer,
} from "../../src/transport.js";

/** The base transport: one real fetch per attempt; an optional per-attempt timeout. */
export function fetchTransport(attemptTimeoutMs?: number): Transport {
  return (request, context) => {
    const signals = [context.signal, attemptTimeoutMs && AbortSignal.timeout(attemptTimeoutMs)];
    const active = signals.filter((s): s is AbortSignal => s instanceof AbortSignal);
    return fetch(request, { signal: active.length > 0 ? AbortSignal.any(active) : undefined });
  };
}

export function stack(layers: TransportLayer[], attemptTimeoutMs?: number): Transport {
  return composeTransport(layers, fetchTransport(attemptTimeoutMs));
}

export interface CallInit {
  method?: string;
  body?: string;
  signal?: AbortSignal;
  retryUnsafe?: boolean;
  logger?: Logger;
  token?: string;
}

/** One logical call through `transport`, as the client would make it. */
export function call(transport: Transport, url: string, init: CallInit = {}): Promise<Response> {
  const method = init.method ?? "GET";
  const request = new Request(url, {
    method,
    body: init.body,
    headers: {
      authorization: `Bearer ${init.token ?? "test-token"}`,
      "content-type": "application/json",
    },
  });
  const context: CallContext = {
    method,
    path: new URL(url).pathname,
    operationId: "test",
    signal: init.signal,
    retryUnsafe: init.retryUnsafe ?? false,
    attempt: 1,
    limiterWaitMs: 0,
    logger: init.logger,
  };
  return transport(request, context);
}
