import { ConfigurationError } from "../errors/configuration-error.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { operations } from "../../generated/operations.js";
import {
  answerSchemaName,
  answerShape,
  sampledAnswer,
  sampledBody,
  stateDto,
  writeAnswer,
} from "./answers.js";
import { loadDocument, requiresToken, successResponse } from "../openapi/operations-document.js";
import { schemaValidator } from "./validator.js";
import { Faults, type FaultOptions } from "./faults.js";
import { randomId, withErrorId } from "./ids.js";
import {
  rateLimitMessage,
  SERVICE_RATE_LIMITS,
  TokenRateLimiter,
  type EmulatorRateLimit,
} from "./rate-limit.js";
import { checkRequest } from "./request-validation.js";
import { createRouter, type RouteMatch } from "./router.js";
import type { RouteContext, StateRoute } from "./routes/context.js";
import { stateRoutes } from "./routes/index.js";
import { isActive } from "./state/runs.js";
import { EmulatorState, type Seed } from "./state/state.js";
import type { EmulatorRequest, EmulatorResponse, Handler, RecordedRequest } from "./types.js";
import { UnsupportedOperationError } from "../errors/unsupported-operation-error.js";

export interface EmulatorOptions {
  /** Valid access tokens; default one random token, exposed as `emulator.token`. */
  tokens?: string[];
  /** The port on 127.0.0.1; default 0, a free one (see `emulator.url`). */
  port?: number;
  /** Per-token limits (default 20/s and 72,000/h, the service's); false disables them. */
  rateLimit?: Partial<EmulatorRateLimit> | false;
  /** `Accept-Version` values served; default ["1"]. A request without the header asks for "1". */
  servedVersions?: string[];
  /** A path prefix before the API, as Enterprise installs may have (e.g. "/api"). */
  basePath?: string;
  /** Faults from the start; `emulator.faults` changes them later. */
  faults?: FaultOptions;
  /**
   * What the emulator knows from the start: organizations, workspaces, members, labels,
   * credentials, compute envs, pipelines, secrets, datasets and runs. `emulator.state` adds
   * more later. Default: only the user, with nothing in the personal workspace.
   */
  seed?: Seed;
  /**
   * Sampled answers send `null` for about half of the properties the schema marks nullable
   * and does not require, as the service does (its Java serializer writes absent values as
   * null); false samples every property. Default true.
   */
  nulls?: boolean;
  /**
   * When true, each describe of an active run moves it one step (`state.runs.advance`), and
   * each describe of a compute env being created makes it AVAILABLE, and each describe of a
   * studio starting or stopping makes it running or stopped, so code that polls
   * sees progress without the test stepping it. Default false: tests move runs themselves.
   */
  autoAdvance?: boolean;
  /**
   * Runs that move on their own, for code that follows them through the runs list
   * (`watchRuns`, `seqera-api watch`) rather than describing each. `onList`: each
   * `GET /workflow` moves the active runs it answered one step, after answering (the next poll
   * sees them further on). `everyMs`: each active run takes one step per `everyMs` after it
   * was launched or added (RUNNING after one, a task per step, ended after its last), brought
   * up to date at each request. Default: runs move only as the test (or `autoAdvance`) says.
   */
  runSteps?: { onList?: boolean; everyMs?: number };
  /**
   * The largest request body accepted, in bytes; a larger one gets 413 before it is read
   * (as does any body of a request refused for its token). Default 32 MiB.
   */
  maxBodyBytes?: number;
  /**
   * How many requests `emulator.requests` keeps, the oldest dropped first, so that a
   * long-lived emulator's memory stays bounded; 0 keeps none. Default 10,000.
   */
  requestLogLimit?: number;
  /**
   * How many bytes of request bodies `emulator.requests` keeps, the oldest requests dropped
   * first (the latest is always kept): a few large bodies weigh more than thousands of small
   * requests. Default 64 MiB.
   */
  requestLogBytes?: number;
}

const router = createRouter(operations);

const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_REQUEST_LOG_LIMIT = 10_000;
const DEFAULT_REQUEST_LOG_BYTES = 64 * 1024 * 1024;
/** How long a refused request's remaining body is read and dropped before the connection ends. */
const DRAIN_MS = 10_000;

/**
 * A local stand-in of the Seqera Platform API, built from the pinned schema: listen on
 * 127.0.0.1 (random port), route every operation, check tokens, limits and input as the
 * service does, and answer with bodies valid for the schema.
 */
export function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return Emulator.start(options);
}

export class Emulator {
  /**
   * The requests received, in order, the latest `requestLogLimit` of them; never the
   * Authorization header, never an uploaded file's content.
   */
  readonly requests: RecordedRequest[] = [];
  readonly faults = new Faults();
  /**
   * Why handlers' answers were refused (each also answered 500): a test can assert this is
   * empty, or print it, when the code under test fails on a 500.
   */
  readonly handlerErrors: string[] = [];
  /** The emulator's data: seed, inspect and move it (`state.runs.advance(id)`). */
  readonly state: EmulatorState;
  readonly #tokens: Set<string>;
  readonly #revoked = new Set<string>();
  readonly #handlers = new Map<string, Handler>();
  readonly #limiter: TokenRateLimiter | undefined;
  readonly #versions: Set<string>;
  readonly #basePath: string;
  readonly #nulls: boolean;
  readonly #autoAdvance: boolean;
  readonly #runSteps: { onList?: boolean; everyMs?: number };
  readonly #doc = loadDocument();
  readonly #maxBodyBytes: number;
  readonly #requestLogLimit: number;
  readonly #requestLogBytes: number;
  /** The body bytes of each request in the log, and their sum. */
  readonly #logWeights = new WeakMap<RecordedRequest, number>();
  #loggedBytes = 0;
  // #serve answers every error itself; the catch is for a socket gone while answering.
  readonly #server = createServer((req, res) => {
    this.#serve(req, res).catch(() => res.destroy());
  });
  #port = 0;

  /** Same as `startEmulator(options)`. */
  static async start(options: EmulatorOptions = {}): Promise<Emulator> {
    const emulator = new Emulator(options);
    await emulator.#listen(options.port ?? 0);
    return emulator;
  }

  private constructor(options: EmulatorOptions) {
    if (options.tokens?.length === 0) throw new ConfigurationError("At least one token is needed");
    this.#tokens = new Set(options.tokens ?? [randomId(40)]);
    this.#limiter =
      options.rateLimit === false
        ? undefined
        : new TokenRateLimiter({ ...SERVICE_RATE_LIMITS, ...options.rateLimit });
    this.#versions = new Set(options.servedVersions ?? ["1"]);
    this.#basePath = (options.basePath ?? "").replace(/\/+$/, "");
    if (options.faults) this.faults.configure(options.faults);
    this.#nulls = options.nulls ?? true;
    this.#autoAdvance = options.autoAdvance ?? false;
    this.#runSteps = options.runSteps ?? {};
    const { everyMs } = this.#runSteps;
    if (everyMs !== undefined && !(Number.isFinite(everyMs) && everyMs > 0)) {
      throw new ConfigurationError(
        `runSteps.everyMs is the milliseconds between a run's steps, more than 0; got ${everyMs}`,
      );
    }
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#requestLogLimit = options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT;
    this.#requestLogBytes = options.requestLogBytes ?? DEFAULT_REQUEST_LOG_BYTES;
    this.state = new EmulatorState(options.seed);
  }

  #listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(port, "127.0.0.1", () => {
        this.#port = (this.#server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  get port(): number {
    return this.#port;
  }

  /** The base URL to give the client, including the base path. */
  get url(): string {
    return `http://127.0.0.1:${this.#port}${this.#basePath}`;
  }

  /** The first valid token (a getter, so that inspecting the emulator does not show it). */
  get token(): string {
    return [...this.#tokens][0]!;
  }

  addToken(token: string): void {
    this.#tokens.add(token);
    this.#revoked.delete(token);
  }

  /** From now on the token gets 403, as a revoked access token does. */
  revokeToken(token: string): void {
    this.#revoked.add(token);
  }

  /**
   * Overrides the answer of one operation, named by operationId ("DescribeWorkflow") or by
   * "METHOD /template" ("GET /workflow/{workflowId}"). Requests are still checked first.
   */
  setHandler(operation: string, handler: Handler): void {
    const operationId = this.#resolveOperation(operation);
    if (!operationId) throw new ConfigurationError(`Unknown operation ${operation}`);
    this.#handlers.set(operationId, handler);
  }

  clearHandlers(): void {
    this.#handlers.clear();
  }

  /** Stops listening and ends open connections. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.close((error) => (error ? reject(error) : resolve()));
      this.#server.closeAllConnections();
    });
  }

  #resolveOperation(operation: string): string | undefined {
    if (operation in operations) return operations[operation]!.operationId;
    return Object.values(operations).find((o) => o.operationId === operation)?.operationId;
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record: RecordedRequest = { method: req.method ?? "GET", path: "", search: "" };
    this.#log(record);
    try {
      // `new URL` throws on what the HTTP parser lets through ("//[", "http://h:99999/").
      const url = URL.canParse(req.url ?? "/", "http://emulator")
        ? new URL(req.url ?? "/", "http://emulator")
        : undefined;
      if (!url) {
        record.path = req.url ?? "";
        return this.#refuse(req, res, record, 400, "Malformed request target");
      }
      record.path = this.#pathUnderBase(url.pathname) ?? url.pathname;
      record.search = url.search.slice(1);
      // Faults stand for what is in front of the service: they come first.
      const fault = this.faults.next();
      if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.kind === "reset") {
        record.fault = "reset";
        req.socket.destroy();
        return;
      }
      if (fault.kind === "unavailable") {
        record.fault = "unavailable";
        const unavailable = { status: 503, body: { message: "Service Unavailable" } };
        return this.#refuse(req, res, record, unavailable);
      }
      if (fault.kind === "rate-limited") {
        record.fault = "rate-limited";
        return this.#refuse(req, res, record, tooManyRequests(0));
      }
      // Refused before the body is read: a stranger cannot make the emulator hold anything.
      const admitted = await this.#admit(req, url, record);
      if ("status" in admitted) return this.#refuse(req, res, record, admitted);
      const rawBody = await readAll(req, this.#maxBodyBytes);
      if (rawBody === undefined) {
        return this.#refuse(req, res, record, 413, this.#bodyTooLarge());
      }
      const answer = await this.#process(req, url, admitted, rawBody, record);
      this.#answer(res, record, answer);
    } catch (err) {
      // A handler failed; once the answer has started there is nothing left to say.
      if (res.headersSent) return void res.destroy();
      // A route needing what this release lacks says so, naming the release.
      const message =
        err instanceof UnsupportedOperationError
          ? err.message
          : "Unexpected error while processing";
      this.#answer(res, record, { status: 500, body: { message: withErrorId(message) } });
    }
  }

  /** Keeps the request in `requests`, the oldest dropped beyond `requestLogLimit`. */
  #log(record: RecordedRequest): void {
    if (this.#requestLogLimit === 0) return;
    this.requests.push(record);
    if (this.requests.length > this.#requestLogLimit) this.#dropOldest();
  }

  /** Counts the body `record` keeps, dropping the oldest requests beyond `requestLogBytes`. */
  #weigh(record: RecordedRequest, bytes: number): void {
    // Not in the log (none is kept, or it was dropped while this request was read).
    if (this.requests.lastIndexOf(record) < 0) return;
    this.#logWeights.set(record, bytes);
    this.#loggedBytes += bytes;
    while (this.#loggedBytes > this.#requestLogBytes && this.requests[0] !== record) {
      this.#dropOldest();
    }
  }

  #dropOldest(): void {
    const dropped = this.requests.shift();
    if (dropped) this.#loggedBytes -= this.#logWeights.get(dropped) ?? 0;
  }

  #bodyTooLarge(): string {
    return withErrorId(`Request body larger than ${this.#maxBodyBytes} bytes`);
  }

  /**
   * Answers before the body is read; the connection is closed after the answer when a body
   * may follow, so that it is never read.
   */
  #refuse(
    req: IncomingMessage,
    res: ServerResponse,
    record: RecordedRequest,
    answer: EmulatorResponse | number,
    message?: string,
  ): void {
    const refusal =
      typeof answer === "number"
        ? { status: answer, body: { message: message ?? withErrorId("Bad request") } }
        : answer;
    if (!hasBody(req)) return this.#answer(res, record, refusal);
    refusal.headers = { ...refusal.headers, connection: "close" };
    record.status = refusal.status;
    // The answer goes out now, but the response ends (and Node closes the connection) only
    // once the rest of the body is read and dropped: a connection closed with unread data is
    // reset, and a client that reads only after sending its whole body (Python's requests)
    // would lose the answer to EPIPE. A client still sending after DRAIN_MS is cut off.
    writeAnswer(res, refusal, false);
    const cutOff = setTimeout(() => {
      res.end();
      req.socket.destroy();
    }, DRAIN_MS);
    req.socket.once("close", () => clearTimeout(cutOff));
    req.once("end", () => {
      clearTimeout(cutOff);
      res.end();
    });
    req.resume();
  }

  #answer(res: ServerResponse, record: RecordedRequest, answer: EmulatorResponse): void {
    record.status = answer.status;
    writeAnswer(res, answer);
  }

  /**
   * What is decided from the request line and headers alone: the route, the token, the
   * version, the rate limit (a call over it waits up to the limiter's timeout here) and the
   * announced body size. An answer when refused, else the route and token.
   */
  async #admit(
    req: IncomingMessage,
    url: URL,
    record: RecordedRequest,
  ): Promise<EmulatorResponse | { route: RouteMatch; token: string | undefined }> {
    const route = this.#route(req.method ?? "GET", url.pathname);
    // The service does not tell an unknown path from a forbidden one.
    if (!route) return { status: 403 };
    record.operationId = route.info.operationId;
    const token = bearer(req.headers.authorization);
    const authorized =
      token !== undefined ? this.#isValid(token) : !requiresToken(this.#doc, route.info);
    if (!authorized) return { status: 403 };
    const version = header(req, "accept-version") ?? "1";
    if (!this.#versions.has(version)) {
      return { status: 400, body: { message: `API version '${version}' is not supported` } };
    }
    const length = Number(header(req, "content-length") ?? 0);
    if (length > this.#maxBodyBytes)
      return { status: 413, body: { message: this.#bodyTooLarge() } };
    if (token !== undefined && this.#limiter) {
      const decision = this.#limiter.take(token);
      if (!decision.allowed) return tooManyRequests(decision.retryAfterSeconds);
      if (decision.waitMs > 0) await new Promise((r) => setTimeout(r, decision.waitMs));
    }
    return { route, token };
  }

  async #process(
    req: IncomingMessage,
    url: URL,
    { route }: { route: RouteMatch },
    rawBody: Buffer,
    record: RecordedRequest,
  ): Promise<EmulatorResponse> {
    const check = await checkRequest(this.#doc, route, url, header(req, "content-type"), rawBody);
    if (!check.ok) return { status: 400, body: { message: withErrorId(check.message) } };
    record.body = recordedBody(check.request.body);
    // An upload is kept by name and size only: its content does not weigh.
    this.#weigh(record, record.body === check.request.body ? rawBody.length : 0);
    const request: EmulatorRequest = {
      operationId: route.info.operationId,
      method: route.info.method,
      route: route.info.path,
      ...check.request,
      headers: headersWithoutAuth(req),
    };
    // A workspace that does not exist (or is not the user's) is refused like the service does.
    const workspaceId = request.query.workspaceId;
    if (typeof workspaceId === "number" && !this.state.workspaces.get(workspaceId)) {
      return { status: 403 };
    }
    if (this.#runSteps.everyMs !== undefined) this.state.runs.catchUp(this.#runSteps.everyMs);
    // Once per request, whether the handler asks for it or falls back to it: a create creates once.
    let own: Promise<EmulatorResponse> | undefined;
    const answer = () =>
      (own ??= this.#own(request, route.info, workspaceId as number | undefined));
    const handled = await this.#handlers.get(route.info.operationId)?.(request, answer);
    if (handled) return this.#checkHandled(route.info, handled);
    return await answer();
  }

  /** The emulator's own answer: from its state, else sampled from the schema. */
  async #own(
    request: EmulatorRequest,
    info: RouteMatch["info"],
    workspaceId: number | undefined,
  ): Promise<EmulatorResponse> {
    const stateful: StateRoute | undefined = stateRoutes[info.operationId];
    if (!stateful) return sampledAnswer(this.#doc, info, this.#nulls);
    if (this.#autoAdvance) this.#advance(request);
    const answer = await stateful(request, this.#context(info, workspaceId));
    if (this.#runSteps.onList && info.operationId === "ListWorkflows") this.#stepListed(answer);
    return answer;
  }

  /** `runSteps.onList`: the active runs a list answered move one step, for the next poll. */
  #stepListed(answer: EmulatorResponse): void {
    const { workflows } = answer.body as { workflows: { workflow: { id: string } }[] };
    for (const { workflow } of workflows) {
      const run = this.state.runs.get(workflow.id);
      if (run && isActive(run)) this.state.runs.advance(run.id);
    }
  }

  /**
   * A handler's success answer is checked against the operation's response schema, as the
   * service's answers are: an invalid one would otherwise reach the code under test as if the
   * service could send it. The 500 says which handler and what is wrong.
   */
  #checkHandled(info: RouteMatch["info"], answer: EmulatorResponse): EmulatorResponse {
    const { status, schema } = successResponse(this.#doc, info);
    const body = answer.body;
    if (answer.status !== status || !schema || info.parseAs !== "json") return answer;
    if (typeof body === "string" || body instanceof Uint8Array) return answer;
    const error = schemaValidator("response").check(schema, body, "body");
    if (!error) return answer;
    const message = `The handler of ${info.operationId} answered a body the response schema rejects: ${error}. Fix the handler's answer.`;
    this.handlerErrors.push(message);
    return { status: 500, body: { message: withErrorId(message) } };
  }

  #context(info: RouteMatch["info"], workspaceId: number | undefined): RouteContext {
    return {
      state: this.state,
      workspaceId,
      baseUrl: this.url,
      sample: () => sampledBody(this.#doc, info, this.#nulls),
      schemaAt: (...path) => answerSchemaName(this.#doc, info, path),
      dto: (schemaName, values, fitted) => stateDto(this.#doc, schemaName, values, fitted),
      shape: () => answerShape(this.#doc, info),
    };
  }

  /** `autoAdvance`: a describe (a poll) moves what it describes one step. */
  #advance(request: EmulatorRequest): void {
    if (request.operationId === "DescribeWorkflow") {
      const run = this.state.runs.get(String(request.params.workflowId));
      if (run && isActive(run)) this.state.runs.advance(run.id);
    } else if (request.operationId === "DescribeDataStudio") {
      const studio = this.state.studios.get(String(request.params.sessionId));
      if (studio) this.state.studios.advance(studio.id);
    } else if (request.operationId === "DescribeComputeEnv") {
      const env = this.state.computeEnvs.get(String(request.params.computeEnvId));
      if (env?.status === "CREATING") this.state.computeEnvs.setStatus(env.id, "AVAILABLE");
    }
  }

  #route(method: string, pathname: string): RouteMatch | undefined {
    const path = this.#pathUnderBase(pathname);
    return path === undefined ? undefined : router(method, path);
  }

  /** The path after the base path, or undefined outside it ("/apiworkflow" is not under "/api"). */
  #pathUnderBase(pathname: string): string | undefined {
    if (pathname === this.#basePath) return "/";
    if (!pathname.startsWith(`${this.#basePath}/`)) return undefined;
    return pathname.slice(this.#basePath.length);
  }

  #isValid(token: string): boolean {
    return this.#tokens.has(token) && !this.#revoked.has(token);
  }
}

/** The service's 429: the whole seconds to wait, in `Retry-After` and in its message. */
function tooManyRequests(retryAfterSeconds: number): EmulatorResponse {
  return {
    status: 429,
    headers: { "retry-after": String(retryAfterSeconds) },
    body: { message: rateLimitMessage(retryAfterSeconds) },
  };
}

/** The body, or undefined once it grows over `max` bytes (the rest is never read). */
function readAll(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off("data", onData);
      req.pause();
      resolve(undefined);
    };
    req.on("data", onData);
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Whether a body may follow the headers (one announced, or chunked). */
function hasBody(req: IncomingMessage): boolean {
  return (
    !req.complete &&
    (Number(req.headers["content-length"] ?? 0) > 0 ||
      req.headers["transfer-encoding"] !== undefined)
  );
}

/** A body as `requests` keeps it: uploaded files by name, type and size, not their content. */
function recordedBody(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return body;
  if (!Object.values(body).some((v) => v instanceof Blob)) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) =>
      value instanceof Blob
        ? [
            key,
            {
              fileName: value instanceof File ? value.name : "",
              type: value.type,
              size: value.size,
            },
          ]
        : [key, value],
    ),
  );
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function bearer(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  // A malformed header is as good as an unknown token.
  return match ? match[1]! : "";
}

function headersWithoutAuth(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name !== "authorization" && value !== undefined)
      out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
