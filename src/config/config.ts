/**
 * Every option is checked here, once: the client's (when it is created), the rate limit's and
 * the retries' (with them), each call's (when it is made) and pagination's (when it starts). A
 * bad value is a ConfigurationError naming the option and the value, before any request; the
 * modules that use the options may take them as valid.
 */
import { isLoopback } from "../core/loopback.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Logger } from "../http/log.js";
import type { RateLimitOptions } from "../limits/limiter.js";
import type { FetchFunction } from "../http/request.js";
import type { ValidateResponses } from "../http/response-check.js";
import { DEFAULT_RETRY, type RetryOptions, type RetryPolicy } from "../http/retry.js";

export type { FetchFunction, ValidateResponses };

export const DEFAULT_BASE_URL = "https://api.cloud.seqera.io";
export const DEFAULT_ACCEPT_VERSION = "1";
export const DEFAULT_TIMEOUT_MS = 30_000;
/** 64 MiB: far above any JSON answer of the API, far below what would strain a process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface SeqeraClientOptions {
  /** Access token; default TOWER_ACCESS_TOKEN. */
  token?: string;
  /** API root, with any path prefix (e.g. https://host/api); default TOWER_API_ENDPOINT, then https://api.cloud.seqera.io. */
  baseUrl?: string;
  /**
   * Sent as `workspaceId` to operations taking that query parameter when the call sets none;
   * default TOWER_WORKSPACE_ID. A positive integer, or "organization/workspace" by name.
   * `null`: no default, whatever the environment says (the user's personal workspace).
   */
  workspaceId?: number | string | null;
  /** Accept-Version header for every call (a call may override it); default "1". */
  acceptVersion?: string;
  /** Per-attempt timeout in ms, covering headers and body (a streamed body too); 0 disables it. Default 30000. */
  timeoutMs?: number;
  /**
   * Largest success body read into memory (json, text, blob, arrayBuffer), in bytes after
   * decompression; a larger one is a ResponseTooLargeError. Default 64 MiB; also per call.
   * parseAs "stream" is not capped.
   */
  maxResponseBytes?: number;
  fetch?: FetchFunction;
  /** Allow plain http:// to hosts other than loopback (the token then travels in clear). */
  allowInsecureHttp?: boolean;
  logger?: Logger;
  /** Client-side rate limiting (20/s and 72,000/h per token by default); false turns it off. */
  rateLimit?: RateLimitOptions | false;
  /** Retries of failed attempts; false turns them off. */
  retry?: RetryOptions | false;
  /**
   * Checks each JSON answer against its operation's response schema: `"warn"` reports where it
   * leaves the types through `logger` (the attempt's entry gets `validation`; without a logger,
   * a process warning), `"throw"` raises ResponseValidationError. Needs the `ajv` and
   * `ajv-formats` packages. Default `"off"`: no validator is loaded.
   */
  validateResponses?: ValidateResponses;
  /** Where the TOWER_* defaults come from; default process.env, `{}` ignores the environment. */
  env?: Env;
}

/** The resolved settings, frozen. Holds no token: that stays inside the client's closures. */
export interface SeqeraConfig {
  readonly baseUrl: string;
  /** Digits only, as the service's int64 ids may not survive a round trip through a float. */
  readonly workspaceId: string | undefined;
  /** The default workspace by name, "organization/workspace", when it was given so. */
  readonly workspaceRef: string | undefined;
  readonly acceptVersion: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly fetch: FetchFunction;
  readonly allowInsecureHttp: boolean;
  readonly logger: Logger | undefined;
  readonly rateLimit: Readonly<RateLimitOptions> | false;
  /** With every default filled in. */
  readonly retry: RetryPolicy | false;
  readonly validateResponses: ValidateResponses;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** The longest delay a timer holds. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const RATE_LIMIT_OPTIONS = ["perSecond", "perHour", "windowMarginMs", "redis", "redisTimeoutMs"];
const RETRY_OPTIONS = Object.keys(DEFAULT_RETRY);
const PARAMS = ["path", "query", "header"];

/** Resolves options over the environment; throws ConfigurationError before any request is made. */
export function resolveConfig(options: SeqeraClientOptions): {
  config: SeqeraConfig;
  token: string;
} {
  // Unknown keys are let through here and per call: options are often spread from a larger
  // object. The nested rateLimit and retry objects are small enough to catch typos in.
  checkObject(options, "createSeqeraClient's options");
  const env = options.env ?? process.env;
  if (options.env !== undefined) checkObject(options.env, "env");
  const token = checkToken(options.token ?? nonBlank(env.TOWER_ACCESS_TOKEN));
  for (const name of ["fetch", "logger"] as const) {
    if (options[name] !== undefined && typeof options[name] !== "function") {
      throw invalid(name, "a function", options[name]);
    }
  }
  if (options.allowInsecureHttp !== undefined && !isBoolean(options.allowInsecureHttp)) {
    throw invalid("allowInsecureHttp", "true or false", options.allowInsecureHttp);
  }
  const allowInsecureHttp = options.allowInsecureHttp === true;
  const workspace = checkWorkspace(
    options.workspaceId === null
      ? undefined
      : (options.workspaceId ?? nonBlank(env.TOWER_WORKSPACE_ID)),
  );
  const config: SeqeraConfig = Object.freeze({
    baseUrl: checkBaseUrl(
      options.baseUrl ?? nonBlank(env.TOWER_API_ENDPOINT) ?? DEFAULT_BASE_URL,
      allowInsecureHttp,
    ),
    workspaceId: workspace.id,
    workspaceRef: workspace.ref,
    acceptVersion: checkAcceptVersion(
      options.acceptVersion ?? DEFAULT_ACCEPT_VERSION,
      "acceptVersion",
    ),
    timeoutMs: checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, "timeoutMs"),
    maxResponseBytes: checkMaxResponseBytes(
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      "maxResponseBytes",
    ),
    fetch: options.fetch ?? globalFetch,
    allowInsecureHttp,
    logger: options.logger,
    rateLimit: checkRateLimit(options.rateLimit ?? {}),
    retry: checkRetry(options.retry ?? {}),
    validateResponses: checkValidateResponses(options.validateResponses ?? "off"),
  });
  return { config, token };
}

/** A call's own options (and paginate's), checked as it is made. */
export function checkCallOptions(init: object, method: string, path: string): void {
  const options = init as Record<string, unknown>;
  for (const key in options) {
    const value = options[key];
    if (value === undefined || key === "body") continue;
    // Names the option only when one is bad: this runs on every call.
    const name = () => `${key} (${method} ${path})`;
    switch (key) {
      case "params":
        checkObject(value, name());
        for (const part of PARAMS) {
          const inner = (value as Record<string, unknown>)[part];
          if (inner !== undefined) checkObject(inner, `params.${part} (${method} ${path})`);
        }
        break;
      case "acceptVersion":
        checkAcceptVersion(value, name());
        break;
      case "signal":
        if (!isSignal(value)) throw invalid(name(), "an AbortSignal", value);
        break;
      case "timeoutMs":
        checkTimeout(value, name());
        break;
      case "maxResponseBytes":
        checkMaxResponseBytes(value, name());
        break;
      case "workspace":
      case "workspaceId":
        checkWorkspace(value, name());
        break;
      case "retryUnsafe":
        if (!isBoolean(value)) throw invalid(name(), "true or false", value);
        break;
      case "parseAs":
        if (!PARSE_AS.has(value as string)) {
          throw invalid(name(), `one of ${[...PARSE_AS].map((v) => `"${v}"`).join(", ")}`, value);
        }
        break;
      case "headers":
        if (typeof value !== "object" || value === null) {
          throw invalid(name(), "Headers, an object or an array of pairs", value);
        }
        break;
    }
  }
}
const PARSE_AS = new Set(["json", "text", "blob", "arrayBuffer", "stream"]);

/** paginate()'s options: the call's (parseAs excepted: pages are JSON) and the paging ones. */
export function checkPageOptions(init: object, method: string, path: string): void {
  const options = init as Record<string, unknown>;
  const where = `${method} ${path}`;
  if (options.parseAs !== undefined) {
    throw new ConfigurationError(`paginate(${where}) reads JSON pages: parseAs cannot be set.`);
  }
  checkCallOptions(init, method, path);
  const { pageSize, limit } = options;
  if (pageSize !== undefined && !isPositiveInteger(pageSize)) {
    throw invalid(
      `pageSize (${where})`,
      "a positive integer (at most 100 are asked for)",
      pageSize,
    );
  }
  if (limit !== undefined && !(Number.isSafeInteger(limit) && (limit as number) >= 0)) {
    throw invalid(`limit (${where})`, "a non-negative integer", limit);
  }
}

/** Looked up per call, so a fetch installed after the client was created is still used. */
const globalFetch: FetchFunction = (request, init) => globalThis.fetch(request, init);

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** Visible ASCII only: anything else is a copy-paste accident (a newline, a space, a smart quote). */
const TOKEN_CHARS = /^[\x21-\x7e]+$/;

function checkToken(token: unknown): string {
  if (token === undefined || (typeof token === "string" && token.trim() === "")) {
    throw new ConfigurationError(
      "No Seqera access token: pass `token` or set TOWER_ACCESS_TOKEN (create one under Your tokens in the Seqera Platform UI).",
    );
  }
  // Never echo the token, not even in part.
  if (typeof token !== "string") {
    throw new ConfigurationError(`token must be a string, got a ${typeof token}.`);
  }
  if (!TOKEN_CHARS.test(token)) {
    throw new ConfigurationError(
      "The Seqera access token contains whitespace, control or non-ASCII characters (check for a trailing newline or a space); tokens are visible ASCII only.",
    );
  }
  return token;
}

function checkBaseUrl(value: unknown, allowInsecureHttp: boolean): string {
  if (typeof value !== "string") throw invalid("baseUrl", "a URL string", value);
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
  // The operation path ("/workflow") is appended to this.
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** An organization or workspace name as the service allows them (letters, digits, - and _). */
const NAME = "[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?";
const WORKSPACE_REF = new RegExp(`^${NAME}/${NAME}$`);

/**
 * A workspace id, or a workspace by name as `tw` takes it ("organization/workspace"); resolving
 * the name to its id is the client's business, not the configuration's.
 */
function checkWorkspace(
  value: unknown,
  name = "workspaceId (or TOWER_WORKSPACE_ID)",
): { id?: string; ref?: string } {
  if (value === undefined) return {};
  const text = typeof value === "string" ? value.trim() : String(value);
  if (typeof value === "string" && WORKSPACE_REF.test(text)) return { ref: text };
  const id = typeof value === "number" ? Number.isSafeInteger(value) : typeof value === "string";
  if (!id || !/^[1-9]\d*$/.test(text)) {
    throw invalid(name, 'a positive integer or "organization/workspace"', value);
  }
  return { id: text };
}

const VALIDATE_RESPONSES: readonly ValidateResponses[] = ["off", "warn", "throw"];

function checkValidateResponses(value: unknown): ValidateResponses {
  if (!VALIDATE_RESPONSES.includes(value as ValidateResponses)) {
    throw invalid("validateResponses", '"off", "warn" or "throw"', value);
  }
  return value as ValidateResponses;
}

function checkAcceptVersion(value: unknown, name: string): string {
  if (typeof value !== "string" || !TOKEN_CHARS.test(value)) {
    throw invalid(name, "a non-empty header value (visible ASCII)", value);
  }
  return value;
}

function checkTimeout(value: unknown, name: string): number {
  if (typeof value !== "number" || !(value >= 0)) {
    throw invalid(name, "0 (no timeout) or a positive number of milliseconds", value);
  }
  return value === Infinity ? 0 : value;
}

function checkMaxResponseBytes(value: unknown, name: string): number {
  if (!isPositiveInteger(value)) throw invalid(name, "a positive integer number of bytes", value);
  return value;
}

function checkRateLimit(value: unknown): Readonly<RateLimitOptions> | false {
  if (value === false) return false;
  checkObject(value, "rateLimit (an object, or false)", RATE_LIMIT_OPTIONS);
  const options = value as Record<string, unknown>;
  const { perSecond, perHour, windowMarginMs, redis, redisTimeoutMs } = options;
  if (perSecond !== undefined && !isPositiveInteger(perSecond)) {
    throw invalid("rateLimit.perSecond", "a positive integer", perSecond);
  }
  if (perHour !== undefined && perHour !== null && !isPositiveInteger(perHour)) {
    throw invalid("rateLimit.perHour", "a positive integer, or null for no hourly budget", perHour);
  }
  if (windowMarginMs !== undefined && !isNonNegativeFinite(windowMarginMs)) {
    throw invalid(
      "rateLimit.windowMarginMs",
      "a non-negative number of milliseconds",
      windowMarginMs,
    );
  }
  if (
    redis !== undefined &&
    !(typeof redis === "string" ? redis.trim() !== "" : isPlainObject(redis))
  ) {
    throw invalid("rateLimit.redis", "a redis:// URL or ioredis options", redis);
  }
  // A timer holds at most 2^31 - 1 ms; Infinity waits for Redis without limit.
  if (
    redisTimeoutMs !== undefined &&
    redisTimeoutMs !== Infinity &&
    !(isNonNegativeFinite(redisTimeoutMs) && redisTimeoutMs <= MAX_TIMER_MS)
  ) {
    throw invalid(
      "rateLimit.redisTimeoutMs",
      "a number of milliseconds from 0 to 2147483647, or Infinity",
      redisTimeoutMs,
    );
  }
  return Object.freeze({ ...(value as RateLimitOptions) });
}

function checkRetry(value: unknown): RetryPolicy | false {
  if (value === false) return false;
  checkObject(value, "retry (an object, or false)", RETRY_OPTIONS);
  const options = value as Record<string, unknown>;
  if (options.maxAttempts !== undefined && !isPositiveInteger(options.maxAttempts)) {
    throw invalid("retry.maxAttempts", "a positive integer (1: no retry)", options.maxAttempts);
  }
  for (const name of ["maxElapsedMs", "baseDelayMs", "maxDelayMs"] as const) {
    if (options[name] !== undefined && !isNonNegativeFinite(options[name])) {
      throw invalid(`retry.${name}`, "a non-negative number of milliseconds", options[name]);
    }
  }
  return Object.freeze({ ...DEFAULT_RETRY, ...stripUndefined(options) }) as RetryPolicy;
}

function stripUndefined(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

function checkObject(value: unknown, name: string, known?: readonly string[]): void {
  if (!isPlainObject(value)) throw invalid(name, "an object", value);
  if (known === undefined) return;
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw unknownOption(key, name, known);
  }
}

function invalid(name: string, expected: string, value: unknown): ConfigurationError {
  return new ConfigurationError(`${name} must be ${expected}, got ${describe(value)}.`);
}

function unknownOption(key: string, where: string, known: readonly string[]): ConfigurationError {
  return new ConfigurationError(
    `Unknown option ${JSON.stringify(key)} in ${where}; known: ${known.join(", ")}.`,
  );
}

/** A value as a message shows it: NaN, -1, "text", an object (never its contents). */
function describe(value: unknown): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
    case "number":
    case "boolean":
    case "undefined":
      return String(value);
    case "bigint":
      return `${value}n`;
    case "function":
      return "a function";
    default:
      if (value === null) return "null";
      return Array.isArray(value) ? "an array" : `an object`;
  }
}

const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isPositiveInteger = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isNonNegativeFinite = (v: unknown): v is number =>
  typeof v === "number" && Number.isFinite(v) && v >= 0;
const isPlainObject = (v: unknown): v is object =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isSignal = (v: unknown): v is AbortSignal =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as AbortSignal).aborted === "boolean" &&
  typeof (v as AbortSignal).addEventListener === "function";
