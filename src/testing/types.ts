import type { FaultKind } from "./faults.js";

/** A validated request, as a handler sees it. */
export interface EmulatorRequest {
  operationId: string;
  method: string;
  /** The operation's path template, e.g. "/workflow/{workflowId}". */
  route: string;
  /** Path parameters, typed by the schema (numbers for integer ids). */
  params: Record<string, unknown>;
  /** Query parameters present in the request, typed by the schema. */
  query: Record<string, unknown>;
  /** Parsed JSON, multipart fields (files as `File`), or undefined. */
  body: unknown;
  /** Request headers without Authorization. */
  headers: Record<string, string>;
}

/**
 * An answer. `body`: a string is sent as text, a Uint8Array as bytes, undefined as nothing,
 * anything else as JSON; `headers` may set the content type.
 */
export interface EmulatorResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Overrides an operation's answer; returning undefined falls back to the emulator's own. */
export type Handler = (
  request: EmulatorRequest,
) => EmulatorResponse | undefined | Promise<EmulatorResponse | undefined>;

/** What the emulator saw of one request; never the Authorization header. */
export interface RecordedRequest {
  method: string;
  /** The concrete path, without the base path and query, e.g. "/workflow/4Bi5xBK6E2Nbhj". */
  path: string;
  /** The query string without "?", as sent. */
  search: string;
  /** Undefined for a path the schema does not have. */
  operationId?: string;
  /** Undefined when the connection was reset without an answer. */
  status?: number;
  /** The parsed body of a valid request. */
  body?: unknown;
  /** Set when an injected fault answered instead of the service. */
  fault?: FaultKind;
}
