import { ConfigurationError } from "../errors/configuration-error.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { operations } from "../../generated/operations.js";
import {
  answerSchemaName,
  answerShape,
  handlerAnswerError,
  sampledAnswer,
  sampledBody,
  stateDto,
  writeAnswer,
} from "./answers.js";
import { loadDocument, requiresToken } from "../openapi/operations-document.js";
import { Faults } from "./faults.js";
import { randomId, withErrorId } from "./ids.js";
import { SERVICE_RATE_LIMITS, TokenRateLimiter } from "./rate-limit.js";
import { checkRequest } from "./request-validation.js";
import { createRouter, type RouteMatch } from "./router.js";
import type { RouteContext, StateRoute } from "./routes/context.js";
import { stateRoutes } from "./routes/index.js";
import type { EmulatorOptions } from "./emulator-options.js";
import { advanceDescribed, stepListed } from "./moves.js";
import { RequestLog } from "./request-log.js";
import {
  answerUnread,
  bearer,
  hasBody,
  header,
  headersWithoutAuth,
  readAll,
  tooManyRequests,
} from "./wire.js";
import { EmulatorState } from "./state/state.js";
import type { EmulatorRequest, EmulatorResponse, Handler, RecordedRequest } from "./types.js";
import { UnsupportedOperationError } from "../errors/unsupported-operation-error.js";

const router = createRouter(operations);

const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_REQUEST_LOG_LIMIT = 10_000;
const DEFAULT_REQUEST_LOG_BYTES = 64 * 1024 * 1024;

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
  readonly requests: RecordedRequest[];
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
  readonly #log: RequestLog;
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
    this.#log = new RequestLog(
      options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT,
      options.requestLogBytes ?? DEFAULT_REQUEST_LOG_BYTES,
    );
    this.requests = this.#log.requests;
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
    this.#log.add(record);
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
    record.status = refusal.status;
    if (hasBody(req)) answerUnread(req, res, refusal);
    else writeAnswer(res, refusal);
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
    this.#log.keepBody(record, check.request.body, rawBody.length);
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
    if (!handled) return await answer();
    const refused = handlerAnswerError(this.#doc, route.info, handled);
    if (!refused) return handled;
    this.handlerErrors.push(refused);
    return { status: 500, body: { message: withErrorId(refused) } };
  }

  /** The emulator's own answer: from its state, else sampled from the schema. */
  async #own(
    request: EmulatorRequest,
    info: RouteMatch["info"],
    workspaceId: number | undefined,
  ): Promise<EmulatorResponse> {
    const stateful: StateRoute | undefined = stateRoutes[info.operationId];
    if (!stateful) return sampledAnswer(this.#doc, info, this.#nulls);
    if (this.#autoAdvance) advanceDescribed(this.state, request);
    const answer = await stateful(request, this.#context(info, workspaceId));
    if (this.#runSteps.onList && info.operationId === "ListWorkflows")
      stepListed(this.state, answer);
    return answer;
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
