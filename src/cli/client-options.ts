import type { SeqeraClientOptions } from "../index.js";
import type { LogEntry } from "../http/log.js";
import { reportLine, type Streams } from "./output.js";

/** The environment variable naming a Redis server that shares the token's rate limit. */
export const REDIS_ENV = "SEQERA_RATE_LIMIT_REDIS";
/** The environment variable that allows plain http:// to a host other than this machine. */
export const INSECURE_HTTP_ENV = "SEQERA_ALLOW_INSECURE_HTTP";

export interface ConnectionFlags {
  url?: string;
  workspace?: string;
  verbose?: boolean;
}

/**
 * The library's options for the CLI: the token from TOWER_ACCESS_TOKEN only (a flag would
 * leave it in shell history and process listings), URL and workspace from flags over the
 * TOWER_* variables, the rate limiter and retries on, and Redis when REDIS_ENV is set. The
 * library checks them; its errors are told in the CLI's terms (errors/settings.ts).
 */
export function clientOptions(
  flags: ConnectionFlags,
  env: Readonly<Record<string, string | undefined>>,
  stderr: Streams["stderr"],
): SeqeraClientOptions {
  const options: SeqeraClientOptions = { env };
  if (flags.url !== undefined) options.baseUrl = flags.url;
  if (flags.workspace !== undefined) options.workspaceId = flags.workspace;
  if (allowsInsecureHttp(env)) options.allowInsecureHttp = true;
  const redis = env[REDIS_ENV]?.trim();
  if (redis) options.rateLimit = { redis };
  // An attempt's error may quote the service (and a secret sent): inert, and the secret hidden.
  if (flags.verbose)
    options.logger = (entry) => reportLine(stderr, env.TOWER_ACCESS_TOKEN, logLine(entry));
  return options;
}

/** Whether INSECURE_HTTP_ENV allows plain http:// to a host other than this machine. */
export function allowsInsecureHttp(env: Readonly<Record<string, string | undefined>>): boolean {
  return /^(1|true|yes)$/i.test(env[INSECURE_HTTP_ENV]?.trim() ?? "");
}

/** One attempt, as --verbose prints it; the entry holds the path template, never ids or the token. */
export function logLine(entry: LogEntry): string {
  if (entry.notice) {
    return `seqera-api: ${entry.method} ${entry.path} (${entry.operationId}): ${oneLine(entry.notice)}`;
  }
  const status = entry.status === undefined ? "no response" : String(entry.status);
  let line = `seqera-api: ${entry.method} ${entry.path} (${entry.operationId}) attempt ${entry.attempt}: ${status} in ${Math.round(entry.durationMs)} ms`;
  if (entry.limiterWaitMs >= 1)
    line += `, ${Math.round(entry.limiterWaitMs)} ms queued at the rate limiter`;
  if (entry.error) line += `: ${oneLine(entry.error)}`;
  if (entry.retry)
    line += `; retrying in ${Math.round(entry.retry.delayMs)} ms (${entry.retry.reason})`;
  return line;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
