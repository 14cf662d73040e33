/**
 * The client and its call path. `send` reads as the steps of a call, each a function below it:
 *
 *   prepare: options checked (config/), the operation's plan (http/operation-plan.ts), the
 *   workspace, the request built once (http/request.ts) → for each attempt, tryOnce: a
 *   rate-limiter slot (limits/), the attempt's timeout and signal (http/attempt.ts), the request
 *   sent and redirects followed by hand (http/redirects.ts), the response read
 *   (http/read-response.ts) → validate (http/validate-response.ts) → retryAfter
 *   (http/retry.ts) → report: one log entry (http/log.ts).
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
import { SeqeraApiError } from "../errors/seqera-api-error.js";
import { TimeoutError } from "../errors/timeout-error.js";
import { logAttempt } from "../http/log.js";
import { createPlanLookup } from "../http/operation-plan.js";
import { paginate, type FetchPage, type PaginateOptions } from "./paginate.js";
import { createRateLimiter, type RateLimiter, type Slot } from "../limits/limiter.js";
import { forgetChanged, shareLookups } from "./lookup.js";
import { workspaceIdOf } from "./workspaces.js";
import { createRedactor } from "../core/redact.js";
import { followRedirects, sendRequest, type Sender } from "../http/redirects.js";
import { prepareRequest, type PreparedRequest, type RequestDefaults } from "../http/request.js";
import { checkResponse, describeIssues } from "../http/validate-response.js";
import type { ResponseIssue } from "../http/validate-response.js";
import { readResponse, type ResponseStep } from "../http/read-response.js";
import { retryDecision, whyNotRetried, type RetryDecision } from "../http/retry.js";
import { giveUpText, type GiveUp } from "../errors/give-up.js";
import { amendTold } from "../errors/settings.js";
import { checkAnsweredIds } from "../model/identified.js";
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

  /** One call: its request built once, then attempts until one succeeds or no retry is left. */
  async function send(method: string, path: string, init: UntypedInit = {}) {
    const { request, step } = await prepare(method, path, init);
    const started = performance.now();
    for (let attempt = 1; ; attempt++) {
      const outcome = await validate(await tryOnce(request, step, init), step);
      const decision =
        "error" in outcome ? retryAfter(outcome.error, step, init, attempt, started) : undefined;
      report(outcome, step, attempt, decision);
      if ("data" in outcome) {
        if (method !== "GET") forgetChanged(client, `${method} ${path}`, step.workspaceId);
        return { data: outcome.data, response: outcome.response };
      }
      if (decision === undefined) throw explained(outcome.error, step, init, attempt, started);
      await sleep(decision.delayMs, init.signal);
    }
  }

  /** The call's options checked, its operation's plan, its workspace and its request. */
  async function prepare(method: string, path: string, init: UntypedInit) {
    checkCallOptions(init, method, path);
    const plan = planFor(method, path);
    // The client's workspace goes to operations that take one, unless the call names its own.
    const workspaceId =
      plan.takesWorkspaceId && init.params?.query?.workspaceId == null
        ? await resolveWorkspaceId(init)
        : undefined;
    const request = prepareRequest(plan, method, path, init, { ...defaults, workspaceId });
    const step: ResponseStep = {
      call: { method, path, operationId: plan.operationId, url: request.url },
      mode: init.parseAs ?? plan.parseAs,
      maxBytes: init.maxResponseBytes ?? config.maxResponseBytes,
      redact,
      workspaceId: request.workspaceId,
    };
    return { request, step };
  }

  /**
   * One attempt: a rate-limiter slot, the request sent with its own timeout, redirects followed
   * (each hop that carries the token through a slot of its own), the response read. It resolves
   * with the body or the error (a slot not given in time included), never throws.
   */
  async function tryOnce(
    request: PreparedRequest,
    step: ResponseStep,
    init: UntypedInit,
  ): Promise<Outcome> {
    const { call } = step;
    const queued = performance.now();
    const timeoutMs = init.timeoutMs ?? config.timeoutMs;
    let sent: number | undefined;
    let slot: Slot | undefined;
    let response: Response | undefined;
    let attempt: Attempt | undefined;
    try {
      // Waiting for a slot is bounded by the call's timeout too (a TimeoutError, unsent).
      slot = limiter && (await limiter.acquire(call, init.signal, timeoutMs));
      sent = performance.now();
      attempt = startAttempt(call, timeoutMs, init.signal);
      const { signal } = attempt;
      const sender: Sender = {
        fetch: config.fetch,
        signal,
        call,
        redact,
        // A hop's wait is bounded by the attempt's timer, already running.
        paced: async (send) => through(limiter && (await limiter.acquire(call, signal)), send),
      };
      // The API server's first answer ends the slot, before any redirect is followed.
      const first = await through(slot, () => sendRequest(request, sender));
      response = await followRedirects(first, request, sender);
      const data = await readResponse(response, step);
      const timing = { queued, sent };
      if (!(data instanceof ReadableStream)) {
        attempt.release();
        return { data, response, timing };
      }
      // A streamed body keeps the attempt (its timeout) until the caller has read it.
      return { data: attempt.guard(data, response.status), response, timing };
    } catch (error) {
      const timing = { queued, sent: sent ?? performance.now() };
      return { error: attempt ? attempt.failure(error, response?.status) : error, timing };
    } finally {
      // Given, but the attempt never started (the caller's signal fired): the slot ends here.
      slot?.done();
    }
  }

  /**
   * A JSON answer's ids checked (an answer without them fails the call), then, with
   * validateResponses, the answer against its schema, issues kept for the report.
   */
  async function validate(outcome: Outcome, step: ResponseStep): Promise<Outcome> {
    if (!("data" in outcome) || step.mode !== "json") return outcome;
    const { call } = step;
    try {
      // The ids the types promise present (model/identified.ts), checked whatever the option.
      checkAnsweredIds(`${call.method} ${call.path}`, outcome.data);
      if (validateResponses === "off") return outcome;
      const status = outcome.response.status;
      const issues = await checkResponse(validateResponses, call, status, outcome.data, redact);
      return issues.length ? { ...outcome, issues } : outcome;
    } catch (error) {
      return { error, timing: outcome.timing };
    }
  }

  /**
   * The failure given to the caller, its message saying which operation failed and, for a
   * failure worth retrying, the retries made and why there were no more (in the options' terms).
   */
  function explained(
    error: unknown,
    { call }: ResponseStep,
    init: UntypedInit,
    attempt: number,
    started: number,
  ): unknown {
    // A caller's abort is its own doing; a slot not given in time says so itself.
    if (init.signal?.aborted || !(error instanceof Error) || unsent(error)) return error;
    const state = {
      method: call.method,
      retryUnsafe: init.retryUnsafe === true,
      attempt,
      elapsedMs: performance.now() - started,
    };
    const giveUp = whyNotRetried(error, state, retry);
    if (giveUp === undefined) return error;
    (error as { giveUp?: GiveUp }).giveUp = giveUp;
    return amendTold(
      error,
      (told, front) => `${told} (${call.operationId}: ${giveUpText(giveUp, front)})`,
    );
  }

  /** Whether and when a failed attempt is tried again (the retry policy, http/retry.ts). */
  function retryAfter(
    error: unknown,
    { call }: ResponseStep,
    init: UntypedInit,
    attempt: number,
    started: number,
  ): RetryDecision | undefined {
    if (retry === false || unsent(error)) return undefined;
    const elapsedMs = performance.now() - started;
    const retryUnsafe = init.retryUnsafe === true;
    return retryDecision(error, { method: call.method, retryUnsafe, attempt, elapsedMs }, retry);
  }

  /** One log entry per attempt; without a logger, validation issues as a process warning. */
  function report(
    outcome: Outcome,
    { call }: ResponseStep,
    attempt: number,
    decision: RetryDecision | undefined,
  ): void {
    const issues = "issues" in outcome ? outcome.issues : undefined;
    if (!logger) {
      if (issues) process.emitWarning(describeIssues(call, issues), "SeqeraResponseValidation");
      return;
    }
    const { sent, queued } = outcome.timing;
    const failure = "error" in outcome ? { error: outcome.error } : undefined;
    logAttempt(logger, {
      method: call.method,
      path: call.path,
      operationId: call.operationId,
      attempt,
      status: "error" in outcome ? statusOf(outcome.error) : outcome.response.status,
      durationMs: performance.now() - sent,
      limiterWaitMs: limiter ? sent - queued : 0,
      ...failure,
      ...(decision && { retry: decision }),
      ...(issues && { validation: issues }),
    });
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

/**
 * Sends a request through `slot` (none: at once), which sees it leave; the slot ends when the
 * first status arrives (a 429 teaches the limiter), or when none will.
 */
async function through(slot: Slot | undefined, send: () => Promise<Response>): Promise<Response> {
  if (!slot) return send();
  try {
    const response = await slot.sending(send);
    slot.done(response.status);
    return response;
  } finally {
    slot.done();
  }
}

const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const;

function byMethod<F>(make: (method: string) => F): Record<(typeof METHODS)[number], F> {
  return Object.fromEntries(METHODS.map((method) => [method, make(method)])) as Record<
    (typeof METHODS)[number],
    F
  >;
}

/** How an attempt ended, with when it was queued and sent (for its log entry). */
type Outcome = { timing: { queued: number; sent: number } } & (
  { data: unknown; response: Response; issues?: ResponseIssue[] } | { error: unknown }
);

/** The call waited its whole timeout for a slot: another attempt would wait again. */
const unsent = (error: unknown) => error instanceof TimeoutError && error.phase === "rate-limit";

const statusOf = (error: unknown) => (error instanceof SeqeraApiError ? error.status : undefined);
