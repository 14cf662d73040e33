/**
 * The client's options and their defaults, resolved over the environment (TOWER_*) into the
 * frozen configuration a client keeps. Each option is checked by its entry in checks.ts.
 */
import { isLoopback } from "../core/loopback.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { SETTINGS, toldAs, type Front } from "../errors/settings.js";
import {
  CLIENT_OPTIONS,
  RATE_LIMIT_OPTIONS,
  RETRY_OPTIONS,
  TOKEN_CHARS,
  checkObject,
  checkOptions,
  invalid,
  workspace,
} from "./checks.js";
import type { Logger } from "../http/log.js";
import type { RateLimitOptions } from "../limits/limiter.js";
import { defaultFetch } from "../http/node-fetch.js";
import { proxyFetch } from "../http/proxy.js";
import type { FetchFunction } from "../http/request.js";
import type { ValidateResponses } from "../http/validate-response.js";
import { DEFAULT_RETRY, type RetryOptions, type RetryPolicy } from "../http/retry.js";
import { DEFAULT_PER_HOUR, DEFAULT_PER_SECOND } from "../limits/limiter.js";

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

/** One client option as the docs' table shows it (`npm run readme` renders it). */
export interface ClientOptionDoc {
  name: keyof SeqeraClientOptions;
  env?: string;
  default: string;
  meaning: string;
}

const code = (value: unknown) => `\`${typeof value === "string" ? JSON.stringify(value) : value}\``;

/** Every client option, in the docs' order; a test holds it to SeqeraClientOptions' keys. */
export const CLIENT_OPTION_DOCS: readonly ClientOptionDoc[] = [
  { name: "token", env: "TOWER_ACCESS_TOKEN", default: "required", meaning: "the access token" },
  {
    name: "baseUrl",
    env: "TOWER_API_ENDPOINT",
    default: `\`${DEFAULT_BASE_URL}\``,
    meaning: "the API's URL, path prefix included",
  },
  {
    name: "workspaceId",
    env: "TOWER_WORKSPACE_ID",
    default: "none",
    meaning: 'an id or `"organization/workspace"`: the workspace of every call and helper',
  },
  {
    name: "acceptVersion",
    default: code(DEFAULT_ACCEPT_VERSION),
    meaning: "the `Accept-Version` header; also per call",
  },
  {
    name: "timeoutMs",
    default: code(DEFAULT_TIMEOUT_MS),
    meaning: "per attempt, reading the body included; `0` for none",
  },
  {
    name: "maxResponseBytes",
    default: `${code(DEFAULT_MAX_RESPONSE_BYTES)} (${DEFAULT_MAX_RESPONSE_BYTES / 2 ** 20} MiB)`,
    meaning: "largest success body read into memory",
  },
  {
    name: "rateLimit",
    default: `\`{ perSecond: ${DEFAULT_PER_SECOND}, perHour: ${DEFAULT_PER_HOUR} }\``,
    meaning: "the token's limits; `false` removes the limiter",
  },
  {
    name: "retry",
    default: `${DEFAULT_RETRY.maxAttempts} attempts within ${DEFAULT_RETRY.maxElapsedMs / 1000} s`,
    meaning: "retries with backoff and jitter; `false` turns them off",
  },
  { name: "logger", default: "none", meaning: "called once per attempt" },
  {
    name: "validateResponses",
    default: code("off"),
    meaning: '`"warn"` or `"throw"` on answers outside the schema',
  },
  {
    name: "fetch",
    default: "Node's `node:http(s)`",
    meaning: "a custom fetch; it must honour `init.signal`",
  },
  {
    name: "allowInsecureHttp",
    default: code(false),
    meaning: "allow plain `http://` to a host that is not loopback",
  },
  {
    name: "env",
    default: "`process.env`",
    meaning: "where the variables are read from (`{}` ignores them)",
  },
];

/** The resolved settings, frozen. Holds no token: that stays inside the client's closures. */
export interface SeqeraConfig {
  readonly baseUrl: string;
  /**
   * The workspace calls go to, as given: an id (digits, as int64 ids may not survive a float) or
   * "organization/workspace"; undefined for the personal workspace. `resolveWorkspaceId()`
   * gives its id.
   */
  readonly workspaceId: string | undefined;
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

/** Resolves options over the environment; throws ConfigurationError before any request is made. */
export function resolveConfig(options: SeqeraClientOptions): {
  config: SeqeraConfig;
  token: string;
} {
  checkObject(options, "createSeqeraClient's options");
  const env = options.env ?? process.env;
  if (options.env !== undefined) checkObject(options.env, "env");
  const token = checkToken(
    options.token ?? nonBlank(env.TOWER_ACCESS_TOKEN),
    options.token === undefined ? "TOWER_ACCESS_TOKEN" : "option",
  );
  const checked = checkOptions(options, CLIENT_OPTIONS, (key) => key) as Partial<SeqeraConfig>;
  const allowInsecureHttp = checked.allowInsecureHttp === true;
  const workspaceId =
    options.workspaceId === null
      ? undefined
      : (options.workspaceId ?? nonBlank(env.TOWER_WORKSPACE_ID));
  const config: SeqeraConfig = Object.freeze({
    baseUrl: checkBaseUrl(
      options.baseUrl ?? nonBlank(env.TOWER_API_ENDPOINT) ?? DEFAULT_BASE_URL,
      allowInsecureHttp,
      options.baseUrl === undefined ? "TOWER_API_ENDPOINT" : "option",
    ),
    workspaceId:
      workspaceId === undefined
        ? undefined
        : workspace(workspaceId, "workspaceId (or TOWER_WORKSPACE_ID)"),
    acceptVersion: checked.acceptVersion ?? DEFAULT_ACCEPT_VERSION,
    timeoutMs: checked.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: checked.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    fetch: checked.fetch ?? proxyFetch(env) ?? defaultFetch,
    allowInsecureHttp,
    logger: checked.logger,
    rateLimit: checkNested(options.rateLimit, "rateLimit", RATE_LIMIT_OPTIONS) as
      Readonly<RateLimitOptions> | false,
    retry: withDefaults(checkNested(options.retry, "retry", RETRY_OPTIONS), DEFAULT_RETRY),
    validateResponses: checked.validateResponses ?? "off",
  });
  return { config, token };
}

/**
 * The options a derived client (`withOptions`) may change: those of one call's behaviour. The
 * token, address, fetch and rate limit define the connection a derived client shares.
 */
export type ClientOverrides = Pick<
  SeqeraClientOptions,
  | "workspaceId"
  | "acceptVersion"
  | "timeoutMs"
  | "maxResponseBytes"
  | "logger"
  | "retry"
  | "validateResponses"
>;

const SHARED_OPTIONS = ["token", "baseUrl", "fetch", "allowInsecureHttp", "rateLimit", "env"];

/** A derived client's settings: `config` with `overrides` checked and applied. */
export function deriveConfig(config: SeqeraConfig, overrides: ClientOverrides): SeqeraConfig {
  checkObject(overrides, "withOptions's options");
  const shared = SHARED_OPTIONS.filter((key) => Object.hasOwn(overrides, key));
  if (shared.length > 0) {
    throw new ConfigurationError(
      `withOptions cannot change ${shared.join(", ")}: a derived client shares its parent's connection and rate limit; create a new client with createSeqeraClient instead.`,
    );
  }
  const checked = checkOptions(overrides, CLIENT_OPTIONS, (key) => key) as Partial<SeqeraConfig>;
  const { workspaceId, retry } = overrides;
  return Object.freeze({
    ...config,
    ...checked,
    ...(workspaceId !== undefined && {
      workspaceId: workspaceId === null ? undefined : workspace(workspaceId, "workspaceId"),
    }),
    ...(retry !== undefined && {
      retry: withDefaults(checkNested(retry, "retry", RETRY_OPTIONS), DEFAULT_RETRY),
    }),
  });
}

/** rateLimit and retry: false turns them off; an object is checked key by key, typos caught. */
function checkNested(
  value: unknown,
  name: string,
  checks: Parameters<typeof checkOptions>[1],
): Readonly<Record<string, unknown>> | false {
  if (value === false) return false;
  const where = `${name} (an object, or false)`;
  checkObject(value ?? {}, where);
  return Object.freeze(checkOptions(value ?? {}, checks, (key) => `${name}.${key}`, where));
}

function withDefaults(
  options: Readonly<Record<string, unknown>> | false,
  defaults: RetryPolicy,
): RetryPolicy | false {
  return options === false ? false : (Object.freeze({ ...defaults, ...options }) as RetryPolicy);
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function checkToken(token: unknown, source: string): string {
  if (token === undefined || (typeof token === "string" && token.trim() === "")) {
    throw toldAs(new ConfigurationError("", { option: "token", source }), (front) =>
      front === "library"
        ? "No Seqera access token: pass `token` or set TOWER_ACCESS_TOKEN (create one under Your tokens in the Seqera Platform UI)."
        : `No Seqera access token: ${SETTINGS.token[front]} is not set (create a token under Your tokens in the Seqera Platform UI${front === "cli" ? ", then export TOWER_ACCESS_TOKEN=<token>" : ""}).`,
    );
  }
  // Never echo the token, not even in part.
  if (typeof token !== "string") {
    throw new ConfigurationError(`token must be a string, got a ${typeof token}.`, {
      option: "token",
      source,
    });
  }
  if (!TOKEN_CHARS.test(token)) {
    throw new ConfigurationError(
      "The Seqera access token contains whitespace, control or non-ASCII characters (check for a trailing newline or a space); tokens are visible ASCII only.",
      { option: "token", source },
    );
  }
  return token;
}

function checkBaseUrl(value: unknown, allowInsecureHttp: boolean, source: string): string {
  const details = { option: "baseUrl", source };
  if (typeof value !== "string") throw invalid("baseUrl", "a URL string", value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(
      `Base URL ${JSON.stringify(value)} is not an absolute URL (expected e.g. https://api.cloud.seqera.io or https://host/api).`,
      details,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigurationError(`Base URL must use https (got ${url.protocol}).`, details);
  }
  // Where the URL came from, in the front end's words: a fault is fixed there.
  const from = (front: Front) => (source === "option" ? SETTINGS.urlOption[front] : source);
  if (url.username || url.password) {
    throw toldAs(new ConfigurationError("", details), (front) =>
      front === "library"
        ? "Base URL must not contain credentials; pass the token as `token`."
        : `${from(front)} must not hold credentials: put the access token in ${SETTINGS.token[front]}, and the URL without them.`,
    );
  }
  if (url.search || url.hash) {
    throw new ConfigurationError("Base URL must not have a query string or fragment.", details);
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopback(url.hostname)) {
    throw toldAs(new ConfigurationError("", details), (front) =>
      front === "library"
        ? `Refusing plain http:// to ${url.host}: the access token would travel unencrypted. Use https, or set ${SETTINGS.insecureHttp.library} if you accept that.`
        : `Refusing plain http:// to ${url.host} (${from(front)}): the access token would travel unencrypted. Use https://, or set ${SETTINGS.insecureHttp[front]} if you accept that.`,
    );
  }
  // The operation path ("/workflow") is appended to this.
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
