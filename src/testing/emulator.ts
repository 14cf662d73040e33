import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { operations } from "../../generated/operations.js";
import {
  isNullable,
  propertiesOf,
  sampledAnswer,
  sampledBody,
  sampledComponent,
  writeAnswer,
} from "./answers.js";
import { loadDocument, requiresToken } from "../openapi/operations-document.js";
import { Faults, type FaultOptions } from "./faults.js";
import { randomId, withErrorId } from "./ids.js";
import {
  rateLimitMessage,
  SERVICE_RATE_LIMITS,
  TokenRateLimiter,
  type RateLimitOptions,
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
  rateLimit?: Partial<RateLimitOptions> | false;
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
   * each describe of a compute env being created makes it AVAILABLE, so code that polls
   * sees progress without the test stepping it. Default false: tests move runs themselves.
   */
  autoAdvance?: boolean;
}

const router = createRouter(operations);

/**
 * A local stand-in of the Seqera Platform API, built from the pinned schema: listen on
 * 127.0.0.1 (random port), route every operation, check tokens, limits and input as the
 * service does, and answer with bodies valid for the schema.
 */
export function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return Emulator.start(options);
}

export class Emulator {
  /** Every request received, in order; never the Authorization header. */
  readonly requests: RecordedRequest[] = [];
  readonly faults = new Faults();
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
  readonly #doc = loadDocument();
  readonly #server = createServer((req, res) => void this.#serve(req, res));
  #port = 0;

  /** Same as `startEmulator(options)`. */
  static async start(options: EmulatorOptions = {}): Promise<Emulator> {
    const emulator = new Emulator(options);
    await emulator.#listen(options.port ?? 0);
    return emulator;
  }

  private constructor(options: EmulatorOptions) {
    if (options.tokens?.length === 0) throw new Error("At least one token is needed");
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
    if (!operationId) throw new Error(`Unknown operation ${operation}`);
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
    const url = new URL(req.url ?? "/", "http://emulator");
    const path = this.#pathUnderBase(url.pathname) ?? url.pathname;
    const record: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      search: url.search.slice(1),
    };
    this.requests.push(record);
    try {
      const rawBody = await readAll(req);
      const fault = this.faults.next();
      if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault.kind === "reset") {
        record.fault = "reset";
        req.socket.destroy();
        return;
      }
      if (fault.kind === "unavailable") {
        record.fault = "unavailable";
        return this.#answer(res, record, { status: 503, body: { message: "Service Unavailable" } });
      }
      const answer = await this.#process(req, url, rawBody, record);
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

  #answer(res: ServerResponse, record: RecordedRequest, answer: EmulatorResponse): void {
    record.status = answer.status;
    writeAnswer(res, answer);
  }

  async #process(
    req: IncomingMessage,
    url: URL,
    rawBody: Buffer,
    record: RecordedRequest,
  ): Promise<EmulatorResponse> {
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
    if (token !== undefined && this.#limiter) {
      const decision = this.#limiter.take(token);
      if (!decision.allowed) {
        return {
          status: 429,
          headers: { "retry-after": String(decision.retryAfterSeconds) },
          body: { message: rateLimitMessage(decision.retryAfterSeconds) },
        };
      }
    }
    const check = await checkRequest(this.#doc, route, url, header(req, "content-type"), rawBody);
    if (!check.ok) return { status: 400, body: { message: withErrorId(check.message) } };
    record.body = check.request.body;
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
    const handled = await this.#handlers.get(route.info.operationId)?.(request);
    if (handled) return handled;
    const stateful: StateRoute | undefined = stateRoutes[route.info.operationId];
    if (!stateful) return sampledAnswer(this.#doc, route.info, this.#nulls);
    if (this.#autoAdvance) this.#advance(request);
    return await stateful(request, this.#context(route.info, workspaceId as number | undefined));
  }

  #context(info: RouteMatch["info"], workspaceId: number | undefined): RouteContext {
    return {
      state: this.state,
      workspaceId,
      baseUrl: this.url,
      sample: () => sampledBody(this.#doc, info, this.#nulls),
      dto: (schemaName, values) => {
        const out = sampledComponent(this.#doc, schemaName, this.#nulls);
        for (const [key, value] of Object.entries(values)) {
          if (value !== undefined) out[key] = value;
          else if (isNullable(this.#doc, schemaName, key)) out[key] = null;
          else delete out[key];
        }
        return out;
      },
      record: (schemaName, values) => {
        const sample = sampledComponent(this.#doc, schemaName, false);
        const { names, required } = propertiesOf(this.#doc, schemaName);
        const out: Record<string, unknown> = {};
        for (const key of names) {
          if (values[key] !== undefined) out[key] = values[key];
          else if (required.has(key)) out[key] = sample[key];
          else if (isNullable(this.#doc, schemaName, key)) out[key] = null;
        }
        return out;
      },
    };
  }

  /** `autoAdvance`: a describe (a poll) moves what it describes one step. */
  #advance(request: EmulatorRequest): void {
    if (request.operationId === "DescribeWorkflow") {
      const run = this.state.runs.get(String(request.params.workflowId));
      if (run && isActive(run)) this.state.runs.advance(run.id);
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

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
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
