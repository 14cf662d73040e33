import type { Redact } from "../core/redact.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../core/json-depth.js";
import { parseRetryAfter } from "../core/retry-after.js";
import { BadRequestError } from "../errors/bad-request-error.js";
import { ConflictError } from "../errors/conflict-error.js";
import { ForbiddenError } from "../errors/forbidden-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
import { RateLimitError } from "../errors/rate-limit-error.js";
import {
  SeqeraApiError,
  type CallInfo,
  type SeqeraApiErrorDetails,
} from "../errors/seqera-api-error.js";
import { ServerError } from "../errors/server-error.js";

const ERROR_ID = "Error ID:";
/** Enough of a non-JSON body (a proxy's HTML page, say) to recognise it, not to flood a log. */
const SNIPPET_CHARS = 300;

export interface FailedResponse {
  response: Response;
  /** The body's first bytes as text (see ERROR_BODY_BYTES in read-response.ts). */
  text: string;
  /** The `workspaceId` the request carried. */
  workspaceId: string | undefined;
}

/**
 * The one factory of errors for statuses: an error status (or a 3xx not followed) becomes the
 * matching class. The body is read defensively: empty, JSON `{message}` or any text all produce an
 * error, never a success. Everything kept from the response (body, message, headers) goes
 * through `redact`: a debugging proxy may echo the Authorization header.
 */
export function errorFromResponse(
  { response, text, workspaceId }: FailedResponse,
  call: CallInfo,
  redact: Redact,
): SeqeraApiError {
  const body = parseBody(redact(text), redact);
  const said = serverMessage(body) ?? "";
  const { message, errorId } = splitErrorId(said);
  const details: SeqeraApiErrorDetails = {
    ...call,
    status: response.status,
    errorId,
    body,
    response: sanitizedResponse(response, redact),
  };
  const where = `${call.method} ${pathOf(call)}`;
  const status = response.status;
  if (status === 400) return new BadRequestError(message || `Bad request: ${where}`, details);
  // The one request that needs neither a permission nor a workspace: only the token is refused.
  if (status === 403 && call.path === "/user-info") {
    return new ForbiddenError(
      `Forbidden (403) for ${where}: the access token (the token option or TOWER_ACCESS_TOKEN) was refused: it is invalid, expired or revoked, the only cause of a 403 there; create a new one under Your tokens in the Seqera Platform UI.${message ? ` Server said: ${message}` : ""}`,
      { ...details, workspaceId, serverMessage: message || undefined },
    );
  }
  if (status === 403) {
    const sent =
      workspaceId === undefined
        ? "sent without a workspaceId (so in the token owner's personal workspace)"
        : `sent with workspaceId ${workspaceId}`;
    return new ForbiddenError(
      `Forbidden (403) for ${where}, ${sent}: the access token is invalid or expired, or lacks a permission this needs, or the resource is in another workspace (each of these answers 403); or this path is not available on this server.${message ? ` Server said: ${message}` : ""}`,
      { ...details, workspaceId, serverMessage: message || undefined },
    );
  }
  if (status === 404) return new NotFoundError(message || `Not found: ${where}`, details);
  if (status === 409) return new ConflictError(message || `Conflict: ${where}`, details);
  if (status === 429) {
    // Only the header says how long: the message's words may change with any release (only its
    // Error ID is documented); without the header, the retry policy's backoff applies.
    const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
    return new RateLimitError(message || `Rate limit exceeded: ${where}`, {
      ...details,
      retryAfter,
    });
  }
  const fallback = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""} for ${where}`;
  if (status >= 500) return new ServerError(message || fallback, details);
  return new SeqeraApiError(message || fallback, details);
}

/**
 * The response's status and headers, without its body and with every header value redacted:
 * the error must not keep the server's echo of the token reachable (inspect shows hidden fields).
 */
export function sanitizedResponse(response: Response, redact: Redact): Response {
  const headers = new Headers();
  response.headers.forEach((value, name) => headers.append(name, redact(value)));
  const copy = new Response(null, {
    status: response.status,
    statusText: redact(response.statusText),
    headers,
  });
  Object.defineProperty(copy, "url", { value: redact(response.url) });
  return copy;
}

/** JSON when it parses (strings redacted again: JSON escapes can hide the token from the text pass), else the text. */
function parseBody(text: string, redact: Redact): unknown {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const json = trimmed[0] === "{" || trimmed[0] === "[" || trimmed[0] === '"';
  // Too deep to walk: kept as text, which is what a person reading the error needs anyway.
  if (json && !nestsDeeperThan(trimmed, MAX_JSON_DEPTH)) {
    try {
      return redactStrings(JSON.parse(trimmed), redact);
    } catch {
      // Not JSON after all (or cut at the size bound): the text is what there is.
    }
  }
  return text;
}

function redactStrings(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key), redactStrings(item, redact)]),
    );
  }
  return value;
}

/**
 * "<message> - Error ID: <id>" split in two, in linear time: the regular expression this
 * replaces (`\s*-\s*Error ID:\s*(\S+)\s*$`) tried its leading `\s*` from every position, so a
 * message of 64,000 spaces took seconds. `trimEnd` strips what `\s` matches.
 */
function splitErrorId(said: string): { message: string; errorId?: string } {
  const at = said.lastIndexOf(ERROR_ID);
  if (at < 0) return { message: said };
  const errorId = said.slice(at + ERROR_ID.length).trim();
  const before = said.slice(0, at).trimEnd();
  if (errorId === "" || /\s/.test(errorId) || !before.endsWith("-")) return { message: said };
  return { message: before.slice(0, -1).trimEnd(), errorId };
}

/** `{message}` from a JSON body, else the start of a text body. */
function serverMessage(body: unknown): string | undefined {
  if (typeof body === "object" && body !== null) {
    const message = (body as { message?: unknown }).message;
    return typeof message === "string" ? message.trim() : undefined;
  }
  if (typeof body !== "string") return undefined;
  const trimmed = body.trim();
  return trimmed.length > SNIPPET_CHARS ? `${trimmed.slice(0, SNIPPET_CHARS)}…` : trimmed;
}

/** Path actually requested (with any Enterprise prefix), else the template. */
function pathOf(call: CallInfo): string {
  if (call.url === undefined) return call.path;
  try {
    return new URL(call.url).pathname;
  } catch {
    return call.path;
  }
}
