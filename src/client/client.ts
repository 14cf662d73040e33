/**
 * The client and its call path, which reads top-down, one concern per step and module:
 *
 *   operation plan (http/operation-plan.ts) → options checked (config/) → request built once
 *   (http/request.ts) → for each attempt: a rate-limiter slot (limits/) → the attempt's timeout
 *   and signal (http/attempt.ts) → the request sent, the slot ended on the API server's answer,
 *   redirects followed by hand (http/redirects.ts) → the response read: status to typed error,
 *   or the body read per the table and capped (http/read-response.ts) → validateResponses
 *   (http/validate-response.ts) → retry or not (http/retry.ts) → one log entry (http/log.ts).
 *
 * The retry loop is here, in the call, so nothing is thrown through a library to escape it.
 */
import { startAttempt, type Attempt } from "../http/attempt.js";
import { sleep } from "../core/backoff.js";
import { checkCallOptions, checkPageOptions } from "../config/checks.js";
import {
  deriveConfig,
  resolveConfig,
  type ClientOverrides,
  type SeqeraClientOptions,
  type SeqeraConfig,
} from "../config/config.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { SeqeraApiError, type CallInfo } from "../errors/seqera-api-error.js";
import { logAttempt } from "../http/log.js";
import { createPlanLookup } from "../http/operation-plan.js";
import { paginate, type FetchPage, type PaginateOptions } from "./paginate.js";
import { createRateLimiter, type Permit, type RateLimiter } from "../limits/limiter.js";
import { shareLookups, workspaceIdOf } from "./names.js";
import { createRedactor } from "../core/redact.js";
import { followRedirects, sendRequest } from "../http/redirects.js";
import { prepareRequest, type RequestDefaults } from "../http/request.js";
import { checkResponse, describeIssues } from "../http/validate-response.js";
import type { ResponseIssue } from "../http/validate-response.js";
import { readResponse, type ResponseStep } from "../http/read-response.js";
import { retryDecision } from "../http/retry.js";
import type { SeqeraClient, UntypedInit } from "./types.js";

export type { SeqeraClient };

/**
 * Creates a client for the Seqera Platform API. Options default from TOWER_ACCESS_TOKEN,
 * TOWER_API_ENDPOINT and TOWER_WORKSPACE_ID; bad settings throw ConfigurationError here, before
 * any request. Calls resolve to the parsed success body and throw SeqeraApiError subclasses.
 */
export function createSeqeraClient(options: SeqeraClientOptions = {}): SeqeraClient {
  const { config, token } = resolveConfig(options);
  const limiter =
    config.rateLimit === false ? undefined : createRateLimiter(token, config.rateLimit);
  return clientFor(config, {
    authorization: `Bearer ${token}`,
    limiter,
    planFor: createPlanLookup(),
    redact: createRedactor(token),
  });
}

/** What a client and those derived from it share: the token, the rate limit, the plans. */
interface Connection {
  authorization: string;
  limiter: RateLimiter | undefined;
  planFor: ReturnType<typeof createPlanLookup>;
  redact: ReturnType<typeof createRedactor>;
}

function clientFor(config: SeqeraConfig, connection: Connection): SeqeraClient {
  const { limiter, planFor, redact } = connection;
  const defaults: RequestDefaults = {
    baseUrl: config.baseUrl,
    headers: { Authorization: connection.authorization, "Accept-Version": config.acceptVersion },
    workspaceId: undefined,
  };
  const { logger, retry, validateResponses } = config;

  async function send(method: string, path: string, init: UntypedInit = {}) {
    checkCallOptions(init, method, path);
    const plan = planFor(method, path);
    // The client's workspace goes to operations that take one, unless the call names its own.
    const workspaceId =
      plan.takesWorkspaceId && init.params?.query?.workspaceId == null
        ? await resolveWorkspaceId(init)
        : undefined;
    const request = prepareRequest(plan, method, path, init, { ...defaults, workspaceId });
    const call: CallInfo = { method, path, operationId: plan.operationId, url: request.url };
    const step: ResponseStep = {
      call,
      mode: init.parseAs ?? plan.parseAs,
      maxBytes: init.maxResponseBytes ?? config.maxResponseBytes,
      redact,
      workspaceId: request.workspaceId,
    };
    const { signal } = init;
    const timeoutMs = init.timeoutMs ?? config.timeoutMs;
    const started = performance.now();
    for (let attemptNumber = 1; ; attemptNumber++) {
      // Each attempt, retries included, waits for its own slot.
      const queued = limiter && performance.now();
      const permit = limiter && (await limiter.acquire(call, signal));
      const sent = performance.now();
      const done = permit && once(permit);
      let response: Response | undefined;
      let outcome: { data: unknown } | { error: unknown };
      let attempt: Attempt | undefined;
      try {
        attempt = startAttempt(call, timeoutMs, signal);
        const sender = { fetch: config.fetch, signal: attempt.signal, call, redact };
        const first = await sendRequest(request, sender);
        // The API server has answered: the rate limiter's slot ends here, not after redirects.
        done?.(first.status);
        response = await followRedirects(first, request, sender);
        const data = await readResponse(response, step);
        // A streamed body keeps the attempt (its timeout) until the caller has read it.
        outcome = {
          data: data instanceof ReadableStream ? attempt.guard(data, response.status) : data,
        };
        if (!(data instanceof ReadableStream)) attempt.release();
      } catch (error) {
        outcome = { error: attempt ? attempt.failure(error, response?.status) : error };
      }
      let validation: ResponseIssue[] | undefined;
      if (validateResponses !== "off" && "data" in outcome && step.mode === "json") {
        try {
          validation = await checkResponse(
            validateResponses,
            call,
            response!.status,
            outcome.data,
            redact,
          );
        } catch (error) {
          outcome = { error };
        }
      }
      // No status arrived: the permit ends here.
      done?.(undefined);
      const decision =
        "error" in outcome && retry !== false
          ? retryDecision(
              outcome.error,
              {
                method,
                retryUnsafe: init.retryUnsafe === true,
                attempt: attemptNumber,
                elapsedMs: performance.now() - started,
              },
              retry,
            )
          : undefined;
      if (logger) {
        const failure = "error" in outcome ? { error: outcome.error } : undefined;
        logAttempt(logger, {
          method,
          path,
          operationId: plan.operationId,
          attempt: attemptNumber,
          status: failure ? statusOf(failure.error) : response!.status,
          durationMs: performance.now() - sent,
          limiterWaitMs: queued === undefined ? 0 : sent - queued,
          ...failure,
          ...(decision && { retry: decision }),
          ...(validation?.length && { validation }),
        });
      } else if (validation?.length) {
        process.emitWarning(describeIssues(call, validation), "SeqeraResponseValidation");
      }
      if ("data" in outcome) return { data: outcome.data, response: response! };
      if (decision === undefined) throw outcome.error;
      await sleep(decision.delayMs, signal);
    }
  }

  /** The client's workspace as an id: "org/workspace" is looked up once per client family. */
  async function resolveWorkspaceId({ signal }: { signal?: AbortSignal } = {}) {
    const ref = config.workspaceId;
    return ref === undefined ? undefined : workspaceIdOf(client, ref, signal);
  }

  const dataOf = async (method: string, path: string, init?: UntypedInit) =>
    (await send(method, path, init)).data;
  // The typed signatures are generic over the schema; the implementation is the same for all.
  const client = {
    config,
    ...byMethod((method) => (path: string, init?: UntypedInit) => dataOf(method, path, init)),
    request: (method: string, path: string, init?: UntypedInit) =>
      dataOf(method.toUpperCase(), path, init),
    paginate: (path: string, init: UntypedInit & PaginateOptions = {}) => {
      checkPageOptions(init, "GET", path);
      const { pagination, operationId } = planFor("GET", path);
      if (!pagination) {
        throw new ConfigurationError(`GET ${path} is not a paginated list operation.`);
      }
      const { pageSize, limit, ...call } = init;
      const fetchPage: FetchPage = (page) =>
        dataOf("GET", path, {
          ...call,
          params: { ...call.params, query: { ...call.params?.query, ...page } },
        });
      return paginate(
        fetchPage,
        pagination,
        { pageSize, limit, signal: call.signal },
        { method: "GET", path, operationId },
      );
    },
    raw: {
      ...byMethod((method) => (path: string, init?: UntypedInit) => send(method, path, init)),
      request: (method: string, path: string, init?: UntypedInit) =>
        send(method.toUpperCase(), path, init),
    },
    withOptions: (overrides: ClientOverrides) => {
      const derived = clientFor(deriveConfig(config, overrides), connection);
      shareLookups(derived, client);
      return derived;
    },
    withWorkspace: (workspaceId: number | string | null) => client.withOptions({ workspaceId }),
    resolveWorkspaceId,
    close: async () => {
      await limiter?.close();
    },
  } as unknown as SeqeraClient;
  return client;
}

const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const;

function byMethod<F>(make: (method: string) => F): Record<(typeof METHODS)[number], F> {
  return Object.fromEntries(METHODS.map((method) => [method, make(method)])) as Record<
    (typeof METHODS)[number],
    F
  >;
}

const statusOf = (error: unknown) => (error instanceof SeqeraApiError ? error.status : undefined);

/** The permit ends once: when the status arrives, or when the attempt failed without one. */
function once(permit: Permit): (status?: number) => void {
  let ended = false;
  return (status) => {
    if (ended) return;
    ended = true;
    permit.done(status);
  };
}
