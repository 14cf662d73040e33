/**
 * The limits tests' calls, through the real client (its call path acquires a rate-limiter
 * permit per attempt), with retries off so that each call is one attempt the server counts.
 */
import { createSeqeraClient, SeqeraApiError, type SeqeraClient } from "../../src/index.js";
import type { RateLimitOptions } from "../../src/limits/limiter.js";
import { expect } from "vitest";
import { startStrictServer } from "../helpers/strict-server.js";

/** A client of `baseUrl` for `token`: `rateLimit` false for none. */
export function limitedClient(
  baseUrl: string,
  token: string,
  rateLimit: RateLimitOptions | false = {},
): SeqeraClient {
  return createSeqeraClient({ baseUrl, token, rateLimit, retry: false, env: {} });
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
 * 40 concurrent calls, through a client with `rateLimit`, to a strict server whose 6th to 8th
 * requests reach it 1.2 s late, as SYNs that a full listen backlog dropped do (sent again a
 * second later). Their slots must be held until they are answered: without that they are
 * granted again at 1,005 ms, before those requests even arrived, and the server counts 23 in a
 * second (3 × 429). Expects every call answered 200 and never more than 20 in a second.
 */
export async function expectLateRequestsKeepTheirSlots(
  token: string,
  rateLimit: RateLimitOptions,
): Promise<void> {
  let reached = 0;
  const late = await startStrictServer({
    forwardDelayMs: () => (++reached >= 6 && reached <= 8 ? 1200 : 0),
  });
  const client = limitedClient(late.url, token, rateLimit);
  try {
    const statuses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(client, `/late/${i}`).then((r) => r.status)),
    );
    expect(statuses).toEqual(Array.from({ length: 40 }, () => 200));
    expect(late.count((a) => a.status === 429)).toBe(0);
    expect(late.maxInWindow()).toBeLessThanOrEqual(20);
  } finally {
    await client.close();
    await late.close();
  }
}
