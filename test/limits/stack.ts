/**
 * The limits tests' calls, through the real client (its call path acquires a rate-limiter
 * slot per attempt), with retries off so that each call is one attempt the server counts.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createSeqeraClient, SeqeraApiError, type SeqeraClient } from "../../src/index.js";
import type { FetchFunction } from "../../src/config/config.js";
import type { LogEntry } from "../../src/http/log.js";
import { TimeoutError } from "../../src/errors/index.js";
import type { RateLimitOptions } from "../../src/limits/limiter.js";
import { expect } from "vitest";
import { maxInWindow, startStrictServer, type Arrival } from "../helpers/strict-server.js";
import { startThreadedServer } from "../helpers/threaded-server.js";
import { onSend } from "../helpers/stamps.js";

/**
 * A client of `baseUrl` for `token`: `rateLimit` false for none. `retries`: a 429 is retried, as
 * by default, for tests whose server may count a loaded machine's sends late (it did nothing).
 */
export function limitedClient(
  baseUrl: string,
  token: string,
  rateLimit: RateLimitOptions | false = {},
  retries = false,
): SeqeraClient {
  return createSeqeraClient({
    baseUrl,
    token,
    rateLimit,
    ...(!retries && { retry: false as const }),
    env: {},
  });
}

/**
 * Records when this process wrote each request to its socket (onSend), as arrivals on one key.
 * `stop()` ends the recording.
 */
export function recordSends(): { sends: Arrival[]; stop(): void } {
  const sends: Arrival[] = [];
  const stop = onSend(({ method, path }, at) => {
    sends.push({ at, key: "", method, url: path, n: sends.length + 1 });
  });
  return { sends, stop };
}

/**
 * The limiter learnt from the server's first 429 (its stamp; the answer leaves then): no request
 * that left more than 2 s later (a window for the slots counted before it, a second for this
 * machine's scheduling) drew another. The n-th arrival of a path is its n-th send.
 */
export function expect429sLearnt(arrivals: Arrival[], sends: { at: number; url: string }[]): void {
  const refused = arrivals.filter((a) => a.status === 429);
  if (refused.length === 0) return;
  const sentAt = ({ url, n }: Arrival) => sends.filter((send) => send.url === url)[n - 1]!.at;
  const learntBy = refused[0]!.at + 2000;
  expect(refused.filter((a) => sentAt(a) > learntBy)).toEqual([]);
}

/** One call; resolves with the status the server answered (an error status included). */
export async function call(
  client: SeqeraClient,
  path: string,
  init: { signal?: AbortSignal } = {},
): Promise<{ status: number }> {
  try {
    const { response } = await client.raw.request("GET", path, { signal: init.signal });
    return { status: response.status };
  } catch (error) {
    if (error instanceof SeqeraApiError && error.status !== undefined) {
      return { status: error.status };
    }
    throw error;
  }
}

/**
 * 40 concurrent calls, through a client with `rateLimit`, to a strict server (Python's, the
 * threaded fixture) whose listen backlog is full while the first 20 connect: their SYNs are
 * dropped and they leave a second later, on TCP's retransmission; and of those sent at once on
 * new connections, the server reads some only when TCP sends them again. Their slots must count
 * from then: counted from when they were taken, they free at 1,005 ms, before those requests even left,
 * and 40 arrive within a second (the server answers 20 × 429). Expects every call answered 200
 * and at most 20 in any second as the server counts them.
 */
export async function expectSlotsCountFromTheSend(
  token: string,
  rateLimit: RateLimitOptions,
): Promise<void> {
  const late = await startThreadedServer({ backlogFullMs: 300 });
  const client = limitedClient(late.url, token, rateLimit);
  try {
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(client, `/late/${i}`).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
    await late.flush();
    expect(late.count(() => true)).toBe(40);
    expect(late.maxInWindow()).toBeLessThanOrEqual(20);
  } finally {
    await client.close();
    await late.close();
  }
}

/**
 * 20 calls that a server never answers (no timeout), then 20 through another client on the same
 * token to another server: those go once the first 20 have left the window, counted 35 ms after
 * they left (or a window after their slots were taken, with no send seen), while the first are
 * still unanswered: within two windows and a second of slack for this machine's
 * scheduling. Never more than 20 arrive in a second, as the two servers count them.
 */
export async function expectUnansweredCallsHoldNoSlot(
  token: string,
  rateLimit: RateLimitOptions,
  fetch?: FetchFunction,
): Promise<void> {
  const silent = await startStrictServer({ fault: () => ({ delayMs: 600_000 }) });
  const other = await startStrictServer();
  const waiting = createSeqeraClient({
    baseUrl: silent.url,
    token,
    rateLimit,
    retry: false,
    timeoutMs: 0,
    fetch,
    env: {},
  });
  const client = createSeqeraClient({
    baseUrl: other.url,
    token,
    rateLimit,
    retry: false,
    fetch,
    env: {},
  });
  // Settled with a connection error when the silent server closes.
  const unanswered = Array.from({ length: 20 }, (_, i) =>
    call(waiting, `/silent/${i}`).catch((error: unknown) => error),
  );
  try {
    while (silent.arrivals.length < 20) await sleep(10);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(client, `/next/${i}`).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
    expect(silent.count((a) => a.status !== undefined)).toBe(0);
    const arrivals = [...silent.arrivals, ...other.arrivals];
    expect(arrivals).toHaveLength(40);
    expect(maxInWindow(arrivals, 1000)).toBeLessThanOrEqual(20);
    const first = (list: Arrival[]) => Math.min(...list.map((a) => a.at));
    expect(first(other.arrivals) - first(silent.arrivals)).toBeLessThan(2 * 1005 + 1000);
  } finally {
    await silent.close();
    await Promise.all(unanswered);
    await Promise.all([waiting.close(), client.close(), other.close()]);
  }
}

/**
 * 20 calls whose answers take `answerMs`, sent on connections open already (`used`: 20 calls
 * answered at once went first) or on new ones, made at once; then 20 more: they go a window and
 * 35 ms after the others left (their slots count from then), before any of those answers came,
 * while no second holds more than 20 as the server counts them. Counted from their answers, or
 * from a window after they left, they would wait 1,505 ms or more.
 */
export async function expectSlowAnswersHoldNoSlot(
  token: string,
  rateLimit: RateLimitOptions,
  answerMs: number,
  connections: "used" | "new" = "used",
): Promise<void> {
  const server = await startStrictServer({
    fault: (arrival) => (arrival.url.startsWith("/slow/") ? { delayMs: answerMs } : undefined),
  });
  const client = limitedClient(server.url, token, rateLimit, true);
  const batch = (prefix: string) =>
    Array.from({ length: 20 }, (_, i) => call(client, `${prefix}${i}`).then((r) => r.status));
  const recording = recordSends();
  try {
    if (connections === "used") await Promise.all(batch("/warm/"));
    const statuses = await Promise.all([...batch("/slow/"), ...batch("/next/")]);
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
    // As this process sent them: a server's clock sees them through the machine's load.
    const { sends } = recording;
    const first = (prefix: string) =>
      Math.min(...sends.filter((a) => a.url.startsWith(prefix)).map((a) => a.at));
    const gap = first("/next/") - first("/slow/");
    expect(gap).toBeGreaterThanOrEqual(1000);
    expect(gap).toBeLessThan(1400);
    expect(maxInWindow(sends, 1000)).toBeLessThanOrEqual(20);
  } finally {
    recording.stop();
    await client.close();
    await server.close();
  }
}

/**
 * A call queued behind a full window with `timeoutMs: 300` fails with a TimeoutError saying it
 * waited 300 ms for a rate-limit slot and was not sent (`phase: "rate-limit"`, `waitedMs`), is
 * not retried, is logged, and the server never sees it; the call before it is answered.
 */
export async function expectWaitBoundedByTimeout(
  token: string,
  rateLimit: RateLimitOptions,
): Promise<void> {
  const server = await startStrictServer();
  const entries: LogEntry[] = [];
  const client = createSeqeraClient({
    baseUrl: server.url,
    token,
    rateLimit: { ...rateLimit, perSecond: 1 },
    logger: (entry) => entries.push(entry),
    env: {},
  });
  try {
    const [first, second] = await Promise.allSettled([
      call(client, "/wait/1"),
      client.raw.request("GET", "/wait/2", { timeoutMs: 300 }),
    ]);
    expect(first).toEqual({ status: "fulfilled", value: { status: 200 } });
    expect(second.status).toBe("rejected");
    const error = (second as PromiseRejectedResult).reason as unknown;
    expect(error).toBeInstanceOf(TimeoutError);
    const message =
      "GET /wait/2 was not sent: it waited 300 ms for a rate-limit slot, its whole timeout " +
      "(300 ms). The token's calls are all in use: allow a longer timeoutMs, or make fewer " +
      "calls at once with this token.";
    expect(error).toMatchObject({ timeoutMs: 300, phase: "rate-limit" });
    // A timer may fire a millisecond or two late: the message says how long it was.
    const { waitedMs } = error as TimeoutError;
    expect(waitedMs).toBeGreaterThanOrEqual(300);
    expect((error as Error).message).toBe(message.replace("300 ms for", `${waitedMs} ms for`));
    expect(server.count((a) => a.url === "/wait/2")).toBe(0);
    // One attempt, logged, not retried: another would wait again.
    const logged = entries.filter((entry) => entry.path === "/wait/2");
    expect(logged).toEqual([
      expect.objectContaining({ attempt: 1, status: undefined, error: (error as Error).message }),
    ]);
    expect(logged[0]!.limiterWaitMs).toBeGreaterThanOrEqual(299);
    expect(logged[0]!.retry).toBeUndefined();
  } finally {
    await client.close();
    await server.close();
  }
}
