/**
 * The seam between the typed client and the layers under it (rate limit, retry, timeout).
 * openapi-fetch hands each call's Request to a per-call fetch; the client turns that into a
 * Transport call with the call's context, and each layer wraps the next, Octokit-style.
 */

/** One entry per attempt of a call; never carries the token or the Authorization header. */
export interface LogEntry {
  method: string;
  /** The path template of the operation, e.g. "/workflow/{workflowId}". */
  path: string;
  operationId: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** HTTP status, or undefined when no response arrived (connection error, timeout, abort). */
  status?: number;
  durationMs: number;
  /** Time this attempt waited for the rate limiter. */
  limiterWaitMs: number;
  /** Set when the attempt will be retried: why, and after how long. */
  retry?: { reason: string; delayMs: number };
  error?: string;
}

export type Logger = (entry: LogEntry) => void;

/** What a layer knows about the logical call it is carrying. */
export interface CallContext {
  method: string;
  path: string;
  operationId: string;
  /** Aborts the whole logical call, including queued and retried attempts. */
  signal?: AbortSignal;
  /** POST/PATCH are retried only when the caller opts in for this call. */
  retryUnsafe: boolean;
  /** Attempt number of the request being sent; the retry layer updates it. */
  attempt: number;
  /** Time the current attempt waited for the limiter; the rate-limit layer sets it. */
  limiterWaitMs: number;
  /** Per-attempt timeout in ms for this call (0: none); unset: the client's default. */
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
