/**
 * What a response becomes: an error status its typed error (from the body's first
 * ERROR_BODY_BYTES, the rest left unread), a success its body read as the operation declares
 * (text/plain and text/csv as string, octet-stream as Blob, JSON parsed, no-content as
 * undefined), or as a stream when asked, never holding more than `maxBytes`. A body that is not
 * what the operation promises is an error, never a silent `undefined`.
 */
import type { BodyFormat } from "../../generated/operations.js";
import type { Redact } from "../core/redact.js";
import { ResponseTooLargeError } from "../errors/response-too-large-error.js";
import { SeqeraApiError, type CallInfo } from "../errors/seqera-api-error.js";
import { decode, readAtMost, readPrefix, type Bytes } from "./body.js";
import { errorFromResponse, sanitizedResponse } from "./error-from-response.js";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "../core/json-depth.js";

/** How a caller may ask for a success body, overriding the operation table (openapi-fetch's names). */
export type ParseAs = "json" | "text" | "blob" | "arrayBuffer" | "stream";
/** The table's modes, plus "auto" (by Content-Type) for paths the table does not know. */
export type ParseMode = BodyFormat | ParseAs | "auto";

/** What an error keeps of an error body: enough for any message the service sends. */
export const ERROR_BODY_BYTES = 64 * 1024;

/** Statuses that legitimately carry no body even on operations that otherwise return JSON. */
const NO_CONTENT = new Set([202, 204, 205]);

export interface ResponseStep {
  call: CallInfo;
  mode: ParseMode;
  maxBytes: number;
  redact: Redact;
  /** The `workspaceId` the request carried, for a 403's message. */
  workspaceId: string | undefined;
}

/**
 * The call's result from its final response. With mode "stream" the body comes back as it is:
 * the caller keeps it bounded by the attempt (attempt.ts, `guard`).
 */
export async function readResponse(response: Response, step: ResponseStep): Promise<unknown> {
  const { call, mode } = step;
  if (!response.ok) {
    const text = await readPrefix(response.body, ERROR_BODY_BYTES);
    throw errorFromResponse({ response, text, workspaceId: step.workspaceId }, call, step.redact);
  }
  const fail = (what: string) =>
    new SeqeraApiError(`${call.method} ${call.path} answered ${response.status} with ${what}`, {
      ...call,
      status: response.status,
      response: sanitizedResponse(response, step.redact),
    });
  if (call.method === "HEAD") {
    await response.body?.cancel();
    return undefined;
  }
  const type = response.headers.get("content-type") ?? "";
  if (/^text\/html\b/i.test(type)) {
    // The API never answers HTML: this is a login, proxy or error page in front of it.
    await response.body?.cancel();
    throw fail("an HTML page, not the API (a login or proxy page in front of it?)");
  }
  if (mode === "stream") return response.body;
  const bytes = await readAtMost(response.body, step.maxBytes);
  if (bytes === undefined) {
    if (mode === "empty") return undefined; // nothing was wanted from it anyway
    throw new ResponseTooLargeError(
      `${call.method} ${call.path} answered ${response.status} with a body over the ${step.maxBytes}-byte cap (maxResponseBytes); reading stopped there. Raise maxResponseBytes for the client or this call, or read it with parseAs: "stream".`,
      {
        ...call,
        status: response.status,
        response: sanitizedResponse(response, step.redact),
        maxResponseBytes: step.maxBytes,
      },
    );
  }
  switch (mode) {
    case "empty":
      return undefined;
    case "text":
      return decode(bytes);
    case "blob":
      return new Blob([bytes], { type });
    case "arrayBuffer":
      return exactBuffer(bytes);
    case "json":
      return parseJson(bytes);
    case "auto":
      if (/[/+]json\b/i.test(type)) return parseJson(bytes);
      if (type.startsWith("text/")) return decode(bytes);
      return bytes.byteLength === 0 ? undefined : new Blob([bytes], { type });
  }

  function parseJson(bytes: Bytes): unknown {
    const text = decode(bytes);
    if (text === "") {
      if (NO_CONTENT.has(response.status)) return undefined;
      throw fail("an empty body where JSON was expected");
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      throw fail(
        `JSON nested deeper than ${MAX_JSON_DEPTH} levels, which no answer of the API does; refused before any code walks it (it would overflow the stack)`,
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      // V8's message quotes the body, which may echo the token: it is not kept as the cause.
      throw fail(`a body that is not JSON (${type || "no content type"})`);
    }
  }
}

function exactBuffer(bytes: Bytes): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes;
  return byteOffset === 0 && byteLength === buffer.byteLength
    ? buffer
    : buffer.slice(byteOffset, byteOffset + byteLength);
}
