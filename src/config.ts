import { ConfigurationError } from "./errors/configuration-error.js";
import type { RateLimitOptions } from "./rate-limit.js";
import type { RetryOptions } from "./retry.js";
import type { Logger } from "./transport.js";

export const DEFAULT_BASE_URL = "https://api.cloud.seqera.io";
export const DEFAULT_ACCEPT_VERSION = "1";
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The fetch the client sends through; it must honour `init.signal` for timeouts and aborts. */
export type FetchFunction = (request: Request, init?: RequestInit) => Promise<Response>;

export interface SeqeraClientOptions {
  /** Access token; default TOWER_ACCESS_TOKEN. */
  token?: string;
  /** API root, with any path prefix (e.g. https://host/api); default TOWER_API_ENDPOINT, then https://api.cloud.seqera.io. */
  baseUrl?: string;
  /**
   * Sent as `workspaceId` to operations taking that query parameter when the call sets none;
   * default TOWER_WORKSPACE_ID. `null`: no default, whatever the environment says (the user's
   * personal workspace).
   */
  workspaceId?: number | string | null;
  /** Accept-Version header for every call (a call may override it); default "1". */
  acceptVersion?: string;
  /** Per-attempt timeout in ms, covering headers and body (a streamed body too); 0 disables it. Default 30000. */
  timeoutMs?: number;
  fetch?: FetchFunction;
  /** Allow plain http:// to hosts other than loopback (the token then travels in clear). */
  allowInsecureHttp?: boolean;
  logger?: Logger;
  /** Client-side rate limiting (20/s and 72,000/h per token by default); false turns it off. */
  rateLimit?: RateLimitOptions | false;
  /** Retries of failed attempts; false turns them off. */
  retry?: RetryOptions | false;
  /** Where the TOWER_* defaults come from; default process.env, `{}` ignores the environment. */
  env?: Env;
}

/** The resolved settings, frozen. Holds no token: that stays inside the client's closures. */
export interface SeqeraConfig {
  readonly baseUrl: string;
  /** Digits only, as the service's int64 ids may not survive a round trip through a float. */
  readonly workspaceId: string | undefined;
  readonly acceptVersion: string;
  readonly timeoutMs: number;
  readonly fetch: FetchFunction;
  readonly allowInsecureHttp: boolean;
  readonly logger: Logger | undefined;
  readonly rateLimit: RateLimitOptions | false;
  readonly retry: RetryOptions | false;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Resolves options over the environment; throws ConfigurationError before any request is made. */
export function resolveConfig(options: SeqeraClientOptions): {
  config: SeqeraConfig;
  token: string;
} {
  const env = options.env ?? process.env;
  const token = checkToken(options.token ?? nonBlank(env.TOWER_ACCESS_TOKEN));
  const allowInsecureHttp = options.allowInsecureHttp === true;
  const config: SeqeraConfig = Object.freeze({
    baseUrl: checkBaseUrl(
      options.baseUrl ?? nonBlank(env.TOWER_API_ENDPOINT) ?? DEFAULT_BASE_URL,
      allowInsecureHttp,
    ),
    workspaceId: checkWorkspaceId(
      options.workspaceId === null
        ? undefined
        : (options.workspaceId ?? nonBlank(env.TOWER_WORKSPACE_ID)),
    ),
    acceptVersion: checkAcceptVersion(options.acceptVersion ?? DEFAULT_ACCEPT_VERSION),
    timeoutMs: checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    fetch: options.fetch ?? globalFetch,
    allowInsecureHttp,
    logger: options.logger,
    rateLimit: options.rateLimit ?? {},
    retry: options.retry ?? {},
  });
  return { config, token };
}

/** Looked up per call, so a fetch installed after the client was created is still used. */
const globalFetch: FetchFunction = (request, init) => globalThis.fetch(request, init);

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** Visible ASCII only: anything else is a copy-paste accident (a newline, a space, a smart quote). */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

function checkToken(token: string | undefined): string {
  if (token === undefined || token.trim() === "") {
    throw new ConfigurationError(
      "No Seqera access token: pass `token` or set TOWER_ACCESS_TOKEN (create one under Your tokens in the Seqera Platform UI).",
    );
  }
  if (!TOKEN_CHARS.test(token)) {
    // Never echo the token, not even in part.
    throw new ConfigurationError(
      "The Seqera access token contains whitespace, control or non-ASCII characters (check for a trailing newline or a space); tokens are visible ASCII only.",
    );
  }
  return token;
}

function checkBaseUrl(value: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(
      `Base URL ${JSON.stringify(value)} is not an absolute URL (expected e.g. https://api.cloud.seqera.io or https://host/api).`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigurationError(`Base URL must use https (got ${url.protocol}).`);
  }
  if (url.username || url.password) {
    throw new ConfigurationError(
      "Base URL must not contain credentials; pass the token as `token`.",
    );
  }
  if (url.search || url.hash) {
    throw new ConfigurationError("Base URL must not have a query string or fragment.");
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw new ConfigurationError(
      `Refusing plain http:// to ${url.host}: the access token would travel unencrypted. Use https, or set allowInsecureHttp: true if you accept that.`,
    );
  }
  // openapi-fetch appends the operation path ("/workflow") to this.
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

function checkWorkspaceId(value: number | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  if (!/^[1-9]\d*$/.test(text) || (typeof value === "number" && !Number.isSafeInteger(value))) {
    throw new ConfigurationError(
      `Workspace id must be a positive integer (from workspaceId or TOWER_WORKSPACE_ID), got ${JSON.stringify(String(value))}.`,
    );
  }
  return text;
}

function checkAcceptVersion(value: string): string {
  if (!TOKEN_CHARS.test(value)) {
    throw new ConfigurationError(
      `acceptVersion must be a non-empty header value, got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function checkTimeout(value: number): number {
  if (!(value >= 0)) {
    throw new ConfigurationError(
      `timeoutMs must be 0 (no timeout) or a positive number, got ${value}.`,
    );
  }
  return value === Infinity ? 0 : value;
}
