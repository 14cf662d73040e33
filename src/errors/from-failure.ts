import { ConnectionError } from "./connection-error.js";
import type { CallInfo } from "./seqera-api-error.js";
import { TimeoutError } from "./timeout-error.js";

/**
 * Maps a fetch or body-read rejection to what the caller should see: the caller's own abort
 * reason when their signal fired, a TimeoutError when the attempt's timer did, else a
 * ConnectionError carrying the original as `cause`.
 */
export function errorFromFailure(
  error: unknown,
  call: CallInfo,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  const where = `${call.method} ${call.path}`;
  if (error instanceof Error && error.name === "TimeoutError") {
    return new TimeoutError(`${where} timed out after ${timeoutMs} ms`, {
      ...call,
      timeoutMs,
      cause: error,
    });
  }
  return new ConnectionError(
    `${where} failed: no response from ${originOf(call.url)} (${reason(error)})`,
    {
      ...call,
      cause: error,
    },
  );
}

function originOf(url: string | undefined): string {
  if (url === undefined) return "the server";
  try {
    return new URL(url).origin;
  } catch {
    return "the server";
  }
}

/** undici hides the useful part ("ECONNREFUSED") in `cause`. */
function reason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (typeof code === "string") return code;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
