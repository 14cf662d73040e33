import { createSeqeraClient, type SeqeraClientOptions } from "../../src/index.js";
import type { TestServer } from "./server.js";

export const TOKEN = "eyJ0aWQiOiA5OTl9.c2VjcmV0LXRva2VuLXZhbHVl";

/**
 * A client against a test server, with retry and rate limiting left out so each test sees
 * exactly the attempts it scripts (those layers have their own tests), and deaf to the
 * machine's TOWER_* variables.
 */
export function clientFor(server: TestServer, options: SeqeraClientOptions = {}) {
  return createSeqeraClient({
    token: TOKEN,
    baseUrl: server.url,
    retry: false,
    rateLimit: false,
    env: {},
    ...options,
  });
}
