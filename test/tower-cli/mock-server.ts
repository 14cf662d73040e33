/**
 * A loopback server answering as the MockServer expectations of tw's tests (seqeralabs/tower-cli
 * src/test) do: each expectation names a method, a path, query parameters that must be present,
 * optionally a JSON body the request's must contain (MockServer's `json(...)`, only the fields
 * given) or equal, and how many times it answers (`exactly(n)`). The first expectation that
 * matches and is not used up answers; a request none matches gets MockServer's 404. `verify()`
 * then checks that every expectation was met as often as it says and nothing else was asked.
 *
 * Answers are the bodies tw's tests serve, read at test time from the recorded answers (test/fixtures/real-responses.lock.json)
 * (its manifest names tw's resource file for each), or our own minimal ones.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, expect } from "vitest";
import { startServer, type RecordedRequest, type TestServer } from "../helpers/server.js";
import { clientFor } from "../helpers/client.js";
import { RECORDED } from "../helpers/schema.js";

const REAL_RESPONSES = RECORDED;

interface Fixture {
  file: string;
  source: { file: string };
}

let fixtures: Fixture[] | undefined;

/** The body tw's test resource `runcmd/<name>.json` holds, e.g. "pipelines_sarek". */
export function twResource(name: string): object {
  fixtures ??= (
    JSON.parse(readFileSync(path.join(REAL_RESPONSES, "manifest.json"), "utf8")) as {
      fixtures: Fixture[];
    }
  ).fixtures;
  const wanted = `src/test/resources/runcmd/${name}.json`;
  const fixture = fixtures.find((f) => f.source.file === wanted);
  if (!fixture) throw new Error(`No recorded answer for tw's resource ${wanted} in the manifest`);
  return JSON.parse(readFileSync(path.join(REAL_RESPONSES, fixture.file), "utf8")) as object;
}

export interface Expectation {
  method: string;
  path: string;
  /** Query parameters the request must carry with these values (others may be present). */
  query?: Record<string, string>;
  /** Query parameters the request must not carry. */
  queryAbsent?: string[];
  /** A JSON body the request's must contain: the fields given, recursively (arrays in full). */
  body?: unknown;
  /** A JSON body the request's must equal. */
  exactBody?: unknown;
  /** How many requests it answers; default 1 (`exactly(1)`); Infinity for tw's unbounded ones. */
  times?: number;
  status?: number;
  /** The JSON answered; none for an empty body. */
  answer?: object;
  /** Answers by hand instead (MockServer's callback). */
  respond?: (request: RecordedRequest) => { status?: number; body?: object };
}

export interface TwMock {
  url: string;
  server: TestServer;
  expect(...expectations: Expectation[]): void;
  /** A client of this server, in the personal workspace (as tw's tests run), unless told. */
  client(options?: Parameters<typeof clientFor>[1]): ReturnType<typeof clientFor>;
  /** The JSON bodies of the requests that matched `method path`. */
  bodies(method: string, pathname: string): unknown[];
  /** Every expectation met as often as it says, and no request left unmatched. */
  verify(): void;
  close(): Promise<void>;
}

export async function startTwMock(): Promise<TwMock> {
  const expectations: { expectation: Expectation; used: number }[] = [];
  const unmatched: string[] = [];
  const server = await startServer((request) => {
    const entry = expectations.find(
      (e) => e.used < (e.expectation.times ?? 1) && matches(e.expectation, request),
    );
    if (!entry) {
      unmatched.push(`${request.method} ${request.url} ${request.body.toString()}`);
      return { status: 404 };
    }
    entry.used++;
    const { answer, status, respond } = entry.expectation;
    if (respond) {
      const scripted = respond(request);
      return { status: scripted.status ?? 200, body: scripted.body };
    }
    return { status: status ?? 200, body: answer };
  });
  return {
    url: server.url,
    server,
    expect: (...added) => {
      for (const expectation of added) expectations.push({ expectation, used: 0 });
    },
    client: (options) => clientFor(server, options),
    bodies: (method, pathname) =>
      server.requests
        .filter((r) => r.method === method && r.pathname === pathname)
        .map((r) => JSON.parse(r.body.toString()) as unknown),
    verify: () => {
      expect(unmatched, "requests no expectation matched").toEqual([]);
      for (const { expectation, used } of expectations) {
        const times = expectation.times ?? 1;
        if (times === Infinity) continue;
        expect(used, `${expectation.method} ${expectation.path} served`).toBe(times);
      }
    },
    close: () => server.close(),
  };
}

function matches(expectation: Expectation, request: RecordedRequest): boolean {
  if (expectation.method !== request.method || expectation.path !== request.pathname) {
    return false;
  }
  for (const [name, value] of Object.entries(expectation.query ?? {})) {
    if (request.query.get(name) !== value) return false;
  }
  if (expectation.queryAbsent?.some((name) => request.query.has(name))) return false;
  if (expectation.body === undefined && expectation.exactBody === undefined) return true;
  let body: unknown;
  try {
    body = JSON.parse(request.body.toString());
  } catch {
    return false;
  }
  if (expectation.exactBody !== undefined) return deepEqual(body, expectation.exactBody);
  return containsJson(body, expectation.body);
}

/** MockServer's ONLY_MATCHING_FIELDS: every field of `wanted` is in `actual`, recursively. */
export function containsJson(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) {
    return (
      Array.isArray(actual) &&
      actual.length === wanted.length &&
      wanted.every((item, i) => containsJson(actual[i], item))
    );
  }
  if (wanted !== null && typeof wanted === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(wanted).every(
      ([key, value]) =>
        Object.hasOwn(actual, key) && containsJson((actual as Record<string, unknown>)[key], value),
    );
  }
  return Object.is(actual, wanted);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return containsJson(a, b) && containsJson(b, a);
}

/** A fresh mock for each test of the file (closed after it): call at the top of the file. */
export function twMockPerTest(): () => TwMock {
  let mock: TwMock | undefined;
  beforeEach(async () => {
    mock = await startTwMock();
  });
  afterEach(async () => {
    await mock?.close();
  });
  return () => mock!;
}
