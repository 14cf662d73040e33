import createClient from "openapi-fetch";
import { resolveConfig, type SeqeraClientOptions, type SeqeraConfig } from "./config.js";
import { errorFromResponse } from "./errors/from-response.js";
import { createFetchTransport, releaseTimeout } from "./fetch-transport.js";
import { createPlanLookup, type OperationPlan } from "./operation-plan.js";
import { logLayer } from "./log.js";
import { paginate, type FetchPage, type PaginateOptions } from "./paginate.js";
import { readBody } from "./parse.js";
import { rateLimitLayer } from "./rate-limit.js";
import { retryLayer } from "./retry.js";
import { composeTransport, type CallContext, type TransportLayer } from "./transport.js";
import type { RawMethods, TypedMethods, UntypedInit } from "./types.js";

export interface SeqeraClient extends TypedMethods {
  /** The resolved settings (never the token). */
  readonly config: SeqeraConfig;
  /** The same calls, resolving to `{ data, response }` with the raw Response. */
  readonly raw: RawMethods;
  /** Releases what the rate limiter holds (timers, a Redis connection). */
  close(): Promise<void>;
}

/** openapi-fetch's request(), called with runtime strings rather than schema literals. */
type InnerRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ response: Response }>;

/**
 * Creates a client for the Seqera Platform API. Options default from TOWER_ACCESS_TOKEN,
 * TOWER_API_ENDPOINT and TOWER_WORKSPACE_ID; bad settings throw ConfigurationError here, before
 * any request. Calls resolve to the parsed success body and throw SeqeraApiError subclasses.
 */
export function createSeqeraClient(options: SeqeraClientOptions = {}): SeqeraClient {
  const { config, token } = resolveConfig(options);
  const layers: TransportLayer[] = [];
  // Retry outermost, so each retried attempt queues at the limiter again; an off layer is left out.
  if (config.retry !== false) layers.push(retryLayer(config.retry));
  else if (config.logger) layers.push(logLayer);
  const limiter = config.rateLimit === false ? undefined : rateLimitLayer(token, config.rateLimit);
  if (limiter) layers.push(limiter);
  const transport = composeTransport(layers, createFetchTransport(config.fetch, config.timeoutMs));
  const inner = createClient({
    baseUrl: config.baseUrl,
    headers: { Authorization: `Bearer ${token}`, "Accept-Version": config.acceptVersion },
  });
  const innerRequest = inner.request as unknown as InnerRequest;
  const planFor = createPlanLookup(config.workspaceId);
  const redact = (text: string) =>
    text.includes(token) ? text.split(token).join("[REDACTED]") : text;

  async function send(method: string, path: string, init: UntypedInit = {}) {
    const plan = planFor(method, path);
    checkPathParams(plan, method, path, init.params?.path);
    const context: CallContext = {
      method,
      path,
      operationId: plan.operationId,
      signal: init.signal,
      retryUnsafe: init.retryUnsafe === true,
      attempt: 1,
      limiterWaitMs: 0,
      timeoutMs: init.timeoutMs,
      logger: config.logger,
    };
    const acceptVersion = init.acceptVersion;
    let url = "";
    const { response } = await innerRequest(method, path, {
      params: init.params,
      body: init.body,
      headers: init.headers,
      // Keep openapi-fetch off the body: success is decided and parsed below, by the table.
      parseAs: "stream",
      querySerializer: plan.serializeQuery,
      bodySerializer: plan.serializeBody,
      fetch: async (request: Request) => {
        url = request.url;
        if (acceptVersion !== undefined) request.headers.set("Accept-Version", acceptVersion);
        const response = await transport(request, context);
        if (!response.ok) {
          const error = await errorFromResponse(
            response,
            { method, path, operationId: plan.operationId, url },
            redact,
          );
          releaseTimeout(response);
          throw error;
        }
        return response;
      },
    });
    const parseAs = init.parseAs ?? plan.parseAs;
    try {
      const data = await readBody(response, parseAs, {
        method,
        path,
        operationId: plan.operationId,
        url,
        signal: init.signal,
        timeoutMs: init.timeoutMs ?? config.timeoutMs,
      });
      return { data, response };
    } finally {
      // A stream is read later, by the caller: its timer keeps bounding it.
      if (parseAs !== "stream") releaseTimeout(response);
    }
  }

  const dataOf = async (method: string, path: string, init?: UntypedInit) =>
    (await send(method, path, init)).data;
  const client = {
    config,
    ...byMethod((method) => (path: string, init?: UntypedInit) => dataOf(method, path, init)),
    request: (method: string, path: string, init?: UntypedInit) =>
      dataOf(method.toUpperCase(), path, init),
    paginate: (path: string, init: UntypedInit & PaginateOptions = {}) => {
      const { pagination } = planFor("GET", path);
      if (!pagination) throw new TypeError(`GET ${path} is not a paginated list operation.`);
      const { pageSize, limit, ...call } = init;
      const fetchPage: FetchPage = (page) =>
        dataOf("GET", path, {
          ...call,
          params: { ...call.params, query: { ...call.params?.query, ...page } },
        });
      return paginate(fetchPage, pagination, { pageSize, limit, signal: call.signal });
    },
    raw: {
      ...byMethod((method) => (path: string, init?: UntypedInit) => send(method, path, init)),
      request: (method: string, path: string, init?: UntypedInit) =>
        send(method.toUpperCase(), path, init),
    },
    close: async () => {
      await limiter?.close();
    },
  };
  // The typed signatures are generic over the schema; the implementation is the same for all.
  return client as unknown as SeqeraClient;
}

const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const;

function byMethod<F>(make: (method: string) => F): Record<(typeof METHODS)[number], F> {
  return Object.fromEntries(METHODS.map((method) => [method, make(method)])) as Record<
    (typeof METHODS)[number],
    F
  >;
}

/** A missing path parameter would otherwise be sent as a literal "{name}" and come back a puzzling 403. */
function checkPathParams(
  plan: OperationPlan,
  method: string,
  path: string,
  values: Record<string, unknown> | undefined,
): void {
  for (const name of plan.pathParams) {
    const value = values?.[name];
    if (value === undefined || value === null || value === "") {
      throw new TypeError(`${method} ${path} needs the path parameter "${name}".`);
    }
  }
}
