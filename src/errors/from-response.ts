import { BadRequestError } from "./bad-request-error.js";
import { ConflictError } from "./conflict-error.js";
import { ForbiddenError } from "./forbidden-error.js";
import { NotFoundError } from "./not-found-error.js";
import { RateLimitError } from "./rate-limit-error.js";
import { SeqeraApiError, type CallInfo, type SeqeraApiErrorDetails } from "./seqera-api-error.js";
import { ServerError } from "./server-error.js";

const ERROR_ID = /\s*-\s*Error ID:\s*(\S+)\s*$/;
const WAIT_SECS = /Wait (\d+)\s*secs?/i;
/** Enough of a non-JSON body (a proxy's HTML page, say) to recognise it, not to flood a log. */
const SNIPPET_CHARS = 300;

/**
 * Turns a failed response into the matching error. Reads the body defensively: empty, JSON
 * `{message}` or any text all produce an error, never a success. `redact` scrubs anything the
 * body might echo back (a debugging proxy may reflect the Authorization header).
 */
export async function errorFromResponse(
  response: Response,
  call: CallInfo,
  redact: (text: string) => string,
): Promise<SeqeraApiError> {
  const text = redact(await readText(response));
  // Again after parsing: JSON escapes (a "/" written as "\\/") can hide the token from the text pass.
  const body = redactStrings(parseBody(text), redact);
  const said = serverMessage(body, text) ?? "";
  const idMatch = ERROR_ID.exec(said);
  const message = idMatch ? said.slice(0, idMatch.index) : said;
  const details: SeqeraApiErrorDetails = {
    ...call,
    status: response.status,
    errorId: idMatch?.[1],
    body,
    response,
  };
  const where = `${call.method} ${pathOf(call)}`;
  const status = response.status;
  if (status === 400) return new BadRequestError(message || `Bad request: ${where}`, details);
  if (status === 403) {
    const addendum = message ? ` Server said: ${message}` : "";
    return new ForbiddenError(
      `Forbidden (403) for ${where}: the access token is invalid or expired, or this path is not available on this server.${addendum}`,
      details,
    );
  }
  if (status === 404) return new NotFoundError(message || `Not found: ${where}`, details);
  if (status === 409) return new ConflictError(message || `Conflict: ${where}`, details);
  if (status === 429) {
    const retryAfter = retryAfterSeconds(response.headers.get("retry-after"), message);
    return new RateLimitError(message || `Rate limit exceeded: ${where}`, {
      ...details,
      retryAfter,
    });
  }
  const fallback = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""} for ${where}`;
  if (status >= 500) return new ServerError(message || fallback, details);
  return new SeqeraApiError(message || fallback, details);
}

async function readText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    // A body cut off mid-stream still leaves a status worth reporting.
    return "";
  }
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)]),
    );
  }
  return value;
}

/** `{message}` from a JSON body, else the start of a text body. */
function serverMessage(body: unknown, text: string): string | undefined {
  if (
    body &&
    typeof body === "object" &&
    typeof (body as { message?: unknown }).message === "string"
  ) {
    return (body as { message: string }).message.trim();
  }
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
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

/** Retry-After is whole seconds (may be 0) or an HTTP date; the message repeats the seconds. */
function retryAfterSeconds(header: string | null, message: string): number | undefined {
  if (header !== null && header.trim() !== "") {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  const wait = WAIT_SECS.exec(message);
  return wait ? Number(wait[1]) : undefined;
}
