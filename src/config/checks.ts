/**
 * Every option's check, in one table per options object: the client's (when it is created),
 * the rate limit's and the retries' (with them), each call's (when it is made) and
 * pagination's (when it starts). An option shared by the client and a call (timeoutMs,
 * maxResponseBytes, acceptVersion, the workspace) has one check, used by both. A bad value is
 * a ConfigurationError naming the option and the value, before any request; the modules that
 * use the options may take them as valid.
 */
import { MAX_TIMER_MS } from "../core/time.js";
import { parseWorkspaceRef } from "../core/workspace-ref.js";
import { MAX_PAGE_SIZE } from "../openapi/operation-info.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { ValidateResponses } from "../http/validate-response.js";

/** Checks one value and returns it as the client keeps it; `name` is for the message. */
type Check<T = unknown> = (value: unknown, name: string) => T;

/** A table of checks for one options object, by option name. */
type Checks = Readonly<Record<string, Check>>;

/** Visible ASCII only: anything else is a copy-paste accident (a newline, a space, a smart quote). */
export const TOKEN_CHARS = /^[\x21-\x7e]+$/;

const boolean: Check<boolean> = (value, name) => {
  if (typeof value !== "boolean") throw invalid(name, "true or false", value);
  return value;
};

const fn: Check = (value, name) => {
  if (typeof value !== "function") throw invalid(name, "a function", value);
  return value;
};

const positiveInteger =
  (expected = "a positive integer"): Check<number> =>
  (value, name) => {
    if (!isPositiveInteger(value)) throw invalid(name, expected, value);
    return value;
  };

const milliseconds: Check<number> = (value, name) => {
  if (!(typeof value === "number" && Number.isFinite(value) && value >= 0)) {
    throw invalid(name, "a non-negative number of milliseconds", value);
  }
  return value;
};

const oneOf =
  <T extends string>(values: readonly T[], expected: string): Check<T> =>
  (value, name) => {
    if (!values.includes(value as T)) throw invalid(name, expected, value);
    return value as T;
  };

export const acceptVersion: Check<string> = (value, name) => {
  if (typeof value !== "string" || !TOKEN_CHARS.test(value)) {
    throw invalid(name, "a non-empty header value (visible ASCII)", value);
  }
  return value;
};

/** 0 or Infinity: no timeout (kept as 0). */
export const timeoutMs: Check<number> = (value, name) => {
  if (typeof value !== "number" || !(value >= 0)) {
    throw invalid(name, "0 (no timeout) or a positive number of milliseconds", value);
  }
  return value === Infinity ? 0 : value;
};

export const maxResponseBytes = positiveInteger("a positive integer number of bytes");

/**
 * A workspace id, or a workspace by name as `tw` takes it ("organization/workspace"), kept as
 * text (ids are int64: digits survive, a float might not); resolving a name to its id is the
 * client's business, not the configuration's.
 */
export const workspace: Check<string> = (value, name) => {
  const ref = parseWorkspaceRef(value);
  if (!ref) throw invalid(name, 'a positive integer or "organization/workspace"', value);
  return "id" in ref ? ref.id : ref.name;
};

const VALIDATE_RESPONSES: readonly ValidateResponses[] = ["off", "warn", "throw"];

/** The client's options checked here; token, baseUrl and the environment are resolved in config.ts. */
export const CLIENT_OPTIONS: Checks = {
  fetch: fn,
  logger: fn,
  allowInsecureHttp: boolean,
  acceptVersion,
  timeoutMs,
  maxResponseBytes,
  validateResponses: oneOf(VALIDATE_RESPONSES, '"off", "warn" or "throw"'),
};

export const RATE_LIMIT_OPTIONS: Checks = {
  perSecond: positiveInteger(),
  perHour: (value, name) =>
    value === null
      ? null
      : positiveInteger("a positive integer, or null for no hourly budget")(value, name),
  windowMarginMs: milliseconds,
  redis: (value, name) => {
    if (!(typeof value === "string" ? value.trim() !== "" : isPlainObject(value))) {
      throw invalid(name, "a redis:// URL or ioredis options", value);
    }
    return value;
  },
  // A timer holds at most 2^31 - 1 ms; Infinity waits for Redis without limit.
  redisTimeoutMs: (value, name) => {
    const finite = typeof value === "number" && Number.isFinite(value) && value >= 0;
    if (value !== Infinity && !(finite && value <= MAX_TIMER_MS)) {
      throw invalid(name, "a number of milliseconds from 0 to 2147483647, or Infinity", value);
    }
    return value;
  },
};

export const RETRY_OPTIONS: Checks = {
  maxAttempts: positiveInteger("a positive integer (1: no retry)"),
  maxElapsedMs: milliseconds,
  baseDelayMs: milliseconds,
  maxDelayMs: milliseconds,
};

const PARAMS = ["path", "query", "header"];

/**
 * The workspace belongs to the client, so that it is resolved once: a call that names one would
 * otherwise be sent, silently, to the client's.
 */
const perClient: Check = (_value, name) => {
  throw new ConfigurationError(
    `${name}: a call does not take a workspace; use client.withWorkspace(idOrName) for calls in another workspace, or params.query.workspaceId for one call by id.`,
  );
};

/** A call's own options; `body` is the operation's, checked by its types. */
const CALL_OPTIONS: Checks = {
  params: (value, name) => {
    checkObject(value, name);
    for (const part of PARAMS) {
      const inner = (value as Record<string, unknown>)[part];
      if (inner !== undefined) checkObject(inner, name.replace(/^params/, `params.${part}`));
    }
    checkHeaders((value as { header?: object }).header, name.replace(/^params/, "params.header"));
    return value;
  },
  acceptVersion,
  signal: (value, name) => {
    if (!isSignal(value)) throw invalid(name, "an AbortSignal", value);
    return value;
  },
  timeoutMs,
  maxResponseBytes,
  workspaceId: perClient,
  workspace: perClient,
  retryUnsafe: boolean,
  parseAs: oneOf(
    ["json", "text", "blob", "arrayBuffer", "stream"],
    'one of "json", "text", "blob", "arrayBuffer", "stream"',
  ),
  headers: (value, name) => {
    if (typeof value !== "object" || value === null) {
      throw invalid(name, "Headers, an object or an array of pairs", value);
    }
    checkHeaders(value, name);
    return value;
  },
};

/**
 * Each header as fetch would take it, so that a bad one (a CR or LF in a value, a space in a
 * name) is named here rather than surfacing as fetch's bare TypeError. The value is never
 * shown: headers carry secrets.
 */
/**
 * What Node's HTTP layer sends in a header value: tab, visible ASCII and Latin-1. Headers accepts
 * other control characters (and fetch then fails with a bare TypeError before sending).
 */
const SENDABLE_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/**
 * Framing and connection headers: fetch's HTTP layer sets them (Host from the base URL), and
 * refuses or drops a call's own.
 */
const CONNECTION_HEADERS = new Set([
  "connection",
  "content-length",
  "expect",
  "host",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
]);

function checkHeaders(headers: object | undefined, where: string): void {
  if (headers === undefined || headers instanceof Headers) return; // a Headers holds valid ones
  const pairs: unknown[] = Array.isArray(headers) ? headers : Object.entries(headers);
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new ConfigurationError(`${where}: each header must be a [name, value] pair.`);
    }
    const [name, value] = pair as [unknown, unknown];
    if (CONNECTION_HEADERS.has(String(name).toLowerCase())) {
      throw new ConfigurationError(
        `${where}: header ${JSON.stringify(String(name))} cannot be set: the HTTP connection sets it itself; leave it out.`,
      );
    }
    // openapi-fetch sends each item of an array value, and leaves out null and undefined.
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined || one === null) continue;
      let sendable = SENDABLE_VALUE.test(String(one));
      try {
        new Headers([[String(name), String(one)]]);
      } catch {
        sendable = false;
      }
      if (!sendable) {
        throw new ConfigurationError(
          `${where}: header ${JSON.stringify(String(name))} cannot be sent: a name must be letters, digits and !#$%&'*+-.^_\`|~, and a value must not contain CR, LF, NUL or other control characters, nor characters past U+00FF (value not shown).`,
        );
      }
    }
  }
}

/**
 * Checks the options an object sets, by its table; returns them checked, undefined ones left
 * out. With `closed`, a key the table does not know is an error (the small nested rateLimit and
 * retry objects catch typos); the client's and a call's options are often spread from a larger
 * object, so unknown keys pass there.
 */
export function checkOptions(
  options: object,
  checks: Checks,
  name: (key: string) => string,
  closed?: string,
): Record<string, unknown> {
  const checked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    const check = Object.hasOwn(checks, key) ? checks[key] : undefined;
    if (check === undefined) {
      if (closed !== undefined) throw unknownOption(key, closed, Object.keys(checks));
      continue;
    }
    if (value !== undefined) checked[key] = check(value, name(key));
  }
  return checked;
}

/** A call's own options (and paginate's), checked as it is made. */
export function checkCallOptions(init: object, method: string, path: string): void {
  // Names the option only when one is bad: this runs on every call.
  checkOptions(init, CALL_OPTIONS, (key) => `${key} (${method} ${path})`);
}

/** paginate()'s options: the call's (parseAs excepted: pages are JSON) and the paging ones. */
export function checkPageOptions(init: object, method: string, path: string): void {
  const options = init as Record<string, unknown>;
  const where = `${method} ${path}`;
  if (options.parseAs !== undefined) {
    throw new ConfigurationError(`paginate(${where}) reads JSON pages: parseAs cannot be set.`);
  }
  checkCallOptions(init, method, path);
  const { pageSize, limit } = options;
  if (pageSize !== undefined) {
    positiveInteger(`a positive integer (at most ${MAX_PAGE_SIZE} are asked for)`)(
      pageSize,
      `pageSize (${where})`,
    );
  }
  if (limit !== undefined && !(Number.isSafeInteger(limit) && (limit as number) >= 0)) {
    throw invalid(`limit (${where})`, "a non-negative integer", limit);
  }
}

export function checkObject(value: unknown, name: string): void {
  if (!isPlainObject(value)) throw invalid(name, "an object", value);
}

export function invalid(name: string, expected: string, value: unknown): ConfigurationError {
  return new ConfigurationError(`${name} must be ${expected}, got ${describe(value)}.`, {
    option: OPTION_NAME.exec(name)?.[0],
  });
}

/** The option a check's name starts with: "workspaceId (or TOWER_WORKSPACE_ID)" is workspaceId's. */
const OPTION_NAME = /^[A-Za-z][\w.]*(?=$| \()/;

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

const isPositiveInteger = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isPlainObject = (v: unknown): v is object =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isSignal = (v: unknown): v is AbortSignal =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as AbortSignal).aborted === "boolean" &&
  typeof (v as AbortSignal).addEventListener === "function";
