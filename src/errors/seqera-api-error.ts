import type { GiveUp } from "./give-up.js";
import { SeqeraError } from "./seqera-error.js";

/** Which call failed: the operation as the schema names it, plus the URL actually requested. */
export interface CallInfo {
  method: string;
  /** Path template, e.g. "/workflow/{workflowId}". */
  path: string;
  operationId: string;
  /** The URL requested (base URL, filled path and query; never credentials). */
  url?: string;
}

export interface SeqeraApiErrorDetails extends CallInfo {
  /** HTTP status; undefined when no response arrived. */
  status?: number;
  /** Parsed from a message ending in " - Error ID: <id>". */
  errorId?: string;
  /** The error body: parsed JSON, text, or undefined when empty; at most its first 64 KiB. */
  body?: unknown;
  /** The response's status and headers (token fragments removed); never its body. */
  response?: Response;
  cause?: unknown;
}

/** Base of every error a call can throw. */
export class SeqeraApiError extends SeqeraError {
  readonly status: number | undefined;
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
  readonly url: string | undefined;
  readonly errorId: string | undefined;
  readonly body: unknown;
  /** Why a failure worth retrying was not tried again, when it was not (set by the client). */
  declare readonly giveUp: GiveUp | undefined;
  /**
   * A copy of the failed response's status and headers, without a body; not enumerable, to keep
   * logs short. A copy, not the Response itself, so nothing the server echoed (the token, say)
   * stays reachable from the error.
   */
  declare readonly response: Response | undefined;

  constructor(message: string, details: SeqeraApiErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.operationId = details.operationId;
    this.url = details.url;
    this.errorId = details.errorId;
    this.body = details.body;
    Object.defineProperty(this, "response", { value: details.response, enumerable: false });
  }
}
// On the prototype, like the built-in errors, so it is not an own property of each instance.
SeqeraApiError.prototype.name = "SeqeraApiError";
