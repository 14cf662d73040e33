import { createSeqeraClient, type SeqeraClientOptions } from "../../src/index.js";

export const TOKEN = "eyJ0aWQiOiA5OTl9.c2VjcmV0LXRva2VuLXZhbHVl";

/**
 * The suite's one client factory: a client of a test server or an emulator (its token), with
 * retry and rate limiting left out so each test sees exactly the attempts it scripts (those
 * layers have their own tests), and deaf to the machine's TOWER_* variables.
 */
export function clientFor(
  target: { url: string; token?: string },
  options: SeqeraClientOptions = {},
) {
  return createSeqeraClient({
    token: target.token ?? TOKEN,
    baseUrl: target.url,
    retry: false,
    rateLimit: false,
    env: {},
    ...options,
  });
}
