import type { Readable } from "openapi-typescript-helpers";
import type { components } from "../../generated/schema.js";
import type { FaultKind } from "./faults.js";

/**
 * A schema object as the service sends it, for handler answers and seeds:
 * `Schema<"DataLinkDto">`. It drops the schema's read-only markers (`$Read<...>`), which the raw
 * `components["schemas"]["DataLinkDto"]` carries and which no object literal satisfies.
 */
export type Schema<Name extends keyof components["schemas"]> = Readable<
  components["schemas"][Name]
>;

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
 * anything else as JSON; `headers` may set the content type. A handler's success answer must
 * be valid for the operation's response schema (else the emulator answers 500 and records why
 * in `emulator.handlerErrors`).
 */
export interface EmulatorResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Overrides an operation's answer; returning undefined falls back to the emulator's own.
 * `answer()` gives the emulator's own answer (computed once per request, state changes
 * included), for a handler that changes a field of it rather than writing it all.
 */
export type Handler = (
  request: EmulatorRequest,
  answer: () => Promise<EmulatorResponse>,
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
