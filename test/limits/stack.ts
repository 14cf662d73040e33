/**
 * The limits tests' calls, through the real client (its call path acquires a rate-limiter
 * permit per attempt), with retries off so that each call is one attempt the server counts.
 */
import { createSeqeraClient, SeqeraApiError, type SeqeraClient } from "../../src/index.js";
import type { RateLimitOptions } from "../../src/limits/limiter.js";

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
