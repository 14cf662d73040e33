/**
 * Builds a call's HTTP request from the operation table and the call's arguments, once per call;
 * every attempt and redirect hop sends a fresh Request made from it (a body can be read once).
 *
 * Why not openapi-fetch's client: its request building smuggles nothing out, but its path
 * serializer would let "." and ".." through as dot segments, and everything else it does (query
 * and multipart bodies) is already ours per operation. Its header merging is reused as is.
 */
import { mergeHeaders } from "openapi-fetch";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { OperationPlan } from "./operation-plan.js";
import type { ParseAs } from "./read-response.js";
import type { HeadersOptions } from "openapi-fetch";

/** The fetch the client sends through; it must honour `init.signal` for timeouts and aborts. */
export type FetchFunction = (request: Request, init?: RequestInit) => Promise<Response>;

/** Options any call may add to its parameters and body. */
export interface CallOptions {
  /** Accept-Version for this call, overriding the client's. */
  acceptVersion?: string;
  /** Aborts the call, including queued and retried attempts; it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Per-attempt timeout for this call, in ms (0: none). With parseAs "stream" it also bounds reading the stream. */
  timeoutMs?: number;
  /** Allow retries of this POST/PATCH (only if it is safe to repeat). */
  retryUnsafe?: boolean;
  /** Read the success body differently from the operation's default; "stream" gives the ReadableStream. */
  parseAs?: ParseAs;
  /** Largest success body read into memory for this call, in bytes; default the client's (64 MiB). */
  maxResponseBytes?: number;
  headers?: HeadersOptions;
}

/** The untyped escape hatch's second argument. */
export interface UntypedInit extends CallOptions {
  params?: {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
    header?: Record<string, string>;
  };
  body?: unknown;
}

export interface PreparedRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string | FormData | undefined;
  /** The `workspaceId` the query carries, for a 403's explanation. */
  workspaceId: string | undefined;
}

export interface RequestDefaults {
  baseUrl: string;
  /** Authorization and Accept-Version. */
  headers: Record<string, string>;
  /** Sent to operations taking `workspaceId` when the call sets none. */
  workspaceId: string | undefined;
}

export function prepareRequest(
  plan: OperationPlan,
  method: string,
  path: string,
  init: UntypedInit,
  defaults: RequestDefaults,
): PreparedRequest {
  const params = init.params;
  const query = params?.query;
  const search = plan.serializeQuery(query ?? NO_QUERY, defaults.workspaceId);
  const filled = path.includes("{") ? fillPath(method, path, params?.path) : path;
  const url = search === "" ? defaults.baseUrl + filled : `${defaults.baseUrl}${filled}?${search}`;
  const bodyless = init.body === undefined;
  const headers = mergeHeaders(
    bodyless || init.body instanceof FormData || plan.serializeBody
      ? undefined
      : { "Content-Type": "application/json" },
    defaults.headers,
    // mergeHeaders reads a plain object or Headers; pairs become Headers first.
    Array.isArray(init.headers) ? new Headers(init.headers) : init.headers,
    params?.header,
  );
  if (init.acceptVersion !== undefined) headers.set("Accept-Version", init.acceptVersion);
  let body: string | FormData | undefined;
  if (!bodyless) {
    if (plan.serializeBody) body = plan.serializeBody(init.body);
    else body = init.body instanceof FormData ? init.body : JSON.stringify(init.body);
  }
  const workspaceId =
    query?.workspaceId ?? (plan.takesWorkspaceId ? defaults.workspaceId : undefined);
  return {
    method,
    url,
    headers,
    body,
    workspaceId:
      workspaceId === undefined || workspaceId === null ? undefined : String(workspaceId),
  };
}

const NO_QUERY: Record<string, unknown> = Object.freeze({});
const PARAM = /\{([^{}]+)\}/g;

/**
 * Each value becomes exactly one path segment: encoded with encodeURIComponent ("/" → %2F), and
 * "." or ".." refused, since the URL parser would resolve them and send the call to another
 * operation (DELETE /identities/../credentials/x is DELETE /credentials/x).
 */
function fillPath(
  method: string,
  path: string,
  values: Record<string, unknown> | undefined,
): string {
  return path.replace(PARAM, (_, name: string) => {
    const value = values?.[name];
    if (value === undefined || value === null || value === "") {
      throw new ConfigurationError(`${method} ${path} needs the path parameter "${name}".`);
    }
    const ok =
      typeof value === "string" ||
      typeof value === "bigint" ||
      (typeof value === "number" && Number.isFinite(value));
    if (!ok) {
      throw new ConfigurationError(
        `Path parameter "${name}" of ${method} ${path} must be a string or a finite number, got ${typeof value === "number" ? value : typeof value}.`,
      );
    }
    const text = String(value);
    if (text === "." || text === "..") {
      throw new ConfigurationError(
        `Path parameter "${name}" of ${method} ${path} is "${text}", a dot segment: the URL would name another path, so the call is refused.`,
      );
    }
    return encodeURIComponent(text);
  });
}
