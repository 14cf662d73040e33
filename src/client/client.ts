/**
 * The client and its call path, which reads top-down, one concern per step and module:
 *
 *   operation plan (operation-plan.ts) → options checked (config.ts) → request built once
 *   (request.ts) → for each attempt: a rate-limiter slot (rate-limit.ts) → the attempt, with its
 *   timeout and redirects (attempt.ts, redirects.ts) → the response step: status to typed error,
 *   or the body read per the table and capped (response.ts, parse.ts) → retry or not (retry.ts)
 *   → one log entry (log.ts).
 *
 * The retry loop is here, in the call, so nothing is thrown through a library to escape it.
 */
import { attempt } from "../http/attempt.js";
import { sleep } from "../core/backoff.js";
import {
  checkCallOptions,
  checkPageOptions,
  resolveConfig,
  type SeqeraClientOptions,
} from "../config/config.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { SeqeraApiError, type CallInfo } from "../errors/seqera-api-error.js";
import { logAttempt } from "../http/log.js";
import { createPlanLookup } from "../http/operation-plan.js";
import { paginate, type FetchPage, type PaginateOptions } from "./paginate.js";
import { createRateLimiter, type Permit } from "../limits/limiter.js";
import { resolveWorkspaceId } from "./names.js";
import { createRedactor } from "../core/redact.js";
import { prepareRequest, type RequestDefaults } from "../http/request.js";
import { checkResponse, describeIssues } from "../http/response-check.js";
import type { ResponseIssue } from "../http/response-validation.js";
import { readResponse, type ResponseStep } from "../http/response.js";
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
  const planFor = createPlanLookup();
  const redact = createRedactor(token);
  const defaults: RequestDefaults = {
    baseUrl: config.baseUrl,
    headers: { Authorization: `Bearer ${token}`, "Accept-Version": config.acceptVersion },
    workspaceId: config.workspaceId,
  };
  const { logger, retry, validateResponses } = config;

  async function send(method: string, path: string, init: UntypedInit = {}) {
    checkCallOptions(init, method, path);
    const plan = planFor(method, path);
    const named = plan.takesWorkspaceId
      ? (init.workspaceId ??
        init.workspace ??
        (init.params?.query?.workspaceId == null ? config.workspaceRef : undefined))
      : undefined;
    const request = prepareRequest(
      plan,
      method,
      path,
      init,
      named === undefined
        ? defaults
        : { ...defaults, workspaceId: await workspaceIdByName(named, init.signal) },
    );
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
      const end = permit && once(permit);
      let response: Response | undefined;
      let outcome: { data: unknown } | { error: unknown };
      try {
        const data = await attempt(
          request,
          { fetch: config.fetch, timeoutMs, signal, call, redact, onResponse: end ?? noop },
          (received, handOver) => {
            response = received;
            return readResponse(received, step, handOver);
          },
        );
        outcome = { data };
      } catch (error) {
        outcome = { error };
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
      end?.(undefined);
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

  /**
   * The id of the call's `workspace` or the client's default given by name: "org/workspace" is
   * looked up once per client (names.ts keeps the list), ids pass through.
   */
  async function workspaceIdByName(ref: string | number, signal: AbortSignal | undefined) {
    return String(await resolveWorkspaceId(client, String(ref), { signal }));
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
      const { pagination } = planFor("GET", path);
      if (!pagination) {
        throw new ConfigurationError(`GET ${path} is not a paginated list operation.`);
      }
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

const noop = () => {};

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
