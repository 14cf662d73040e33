import { BodyReadError } from "../errors/body-read-error.js";
import { SETTINGS, toldAs } from "../errors/settings.js";
import { ConnectionError } from "../errors/connection-error.js";
import type { CallInfo } from "../errors/seqera-api-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import { ProxyFailure } from "./proxy.js";

/** Node's TLS codes for a certificate chain this machine does not trust. */
const UNTRUSTED = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
]);

/** How far an attempt got before it failed. */
export interface FailurePoint {
  /** The status that arrived before the body broke off; undefined when no response arrived. */
  status: number | undefined;
  /** Whether the attempt's own timer ended it. */
  timedOut: boolean;
  timeoutMs: number;
}

/**
 * The error for an attempt that failed on the wire (the caller's own abort is not one: the
 * caller gets their reason): a TimeoutError when the attempt's timer fired, else a
 * ConnectionError when no response arrived, or a BodyReadError when the body broke off after
 * its status. The original is kept as `cause` (undici's errors carry no request headers), less
 * the server's bytes (below).
 */
export function errorFromFailure(failure: unknown, call: CallInfo, at: FailurePoint): unknown {
  const error = withoutServerBytes(failure);
  const where = `${call.method} ${call.path}`;
  const { status, timeoutMs } = at;
  // Said wherever the proxy was on the way: it may be what is down, refusing or silent.
  const via = error instanceof ProxyFailure ? ` through the proxy ${error.proxy}` : "";
  if (at.timedOut) {
    const message =
      status === undefined
        ? `${where} timed out after ${timeoutMs} ms${via}`
        : `${where} answered ${status}, then its body did not arrive in full within the ${timeoutMs} ms timeout`;
    return new TimeoutError(message, { ...call, status, timeoutMs, cause: error });
  }
  const code = codeOf(error);
  // undici says a refused tunnel in its message only ("Proxy response (407) !== 200 ...").
  const refused = via ? /Proxy response \((\d{3})\)/.exec(causeMessages(error)) : null;
  const why = refused ? `the proxy answered ${refused[1]}` : (code ?? messageOf(error));
  if (status === undefined) {
    const failed = `${where} failed: no response from ${originOf(call.url)}${via} (${why})`;
    if (code !== undefined && UNTRUSTED.has(code)) {
      // The network and the endpoint are fine: this machine does not trust who answered.
      return new ConnectionError(
        `${failed}: this machine does not trust the server's TLS certificate. If the install uses a private certificate authority, set NODE_EXTRA_CA_CERTS to its certificate (a PEM file) for the process.`,
        { ...call, code, cause: error },
      );
    }
    return toldAs(new ConnectionError(failed, { ...call, code, cause: error }), (front) =>
      via ? failed : `${failed}; check the endpoint (${SETTINGS.baseUrl[front]}) and the network`,
    );
  }
  return new BodyReadError(
    `${where} answered ${status}, then the body broke off before it was complete (${why})`,
    { ...call, status, code, cause: error },
  );
}

/**
 * Parser errors keep the bytes they could not parse: undici's HTTPParserError as `data`, Node's
 * HTTP client as `rawPacket`. They are the server's own, which may echo the token (a debugging
 * proxy echoes the Authorization header), so they are dropped.
 */
function withoutServerBytes(error: unknown): unknown {
  for (let e = error, depth = 0; depth < 3 && typeof e === "object" && e !== null; depth++) {
    if ("data" in e) delete (e as { data?: unknown }).data;
    if ("rawPacket" in e) delete (e as { rawPacket?: unknown }).rawPacket;
    e = (e as { cause?: unknown }).cause;
  }
  return error;
}

/** undici hides the useful part ("ECONNREFUSED") in `cause`. */
function codeOf(error: unknown): string | undefined {
  for (let e = error, depth = 0; depth < 4 && typeof e === "object" && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The messages along the error's chain of causes, a few levels deep. */
function causeMessages(error: unknown): string {
  const messages: string[] = [];
  for (let e = error, depth = 0; depth < 5 && e instanceof Error; depth++, e = e.cause) {
    messages.push(e.message);
  }
  return messages.join("; ");
}

function messageOf(failure: unknown): string {
  const error = failure instanceof ProxyFailure ? failure.cause : failure;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function originOf(url: string | undefined): string {
  if (url === undefined) return "the server";
  try {
    return new URL(url).origin;
  } catch {
    return "the server";
  }
}
