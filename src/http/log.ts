import type { ResponseIssue } from "./validate-response.js";

/**
 * One entry per attempt of a call; never carries the token or any header. An entry with a
 * `notice` is not an attempt (`attempt` 0, no duration): a helper's remark on the answer of the
 * call it names, e.g. a wait going on through a status this release does not list.
 */
export interface LogEntry {
  method: string;
  /** The path template of the operation, e.g. "/workflow/{workflowId}". */
  path: string;
  operationId: string;
  /** 1 for the first attempt, 2 for the first retry, …; 0 for a notice. */
  attempt: number;
  /** HTTP status, or undefined when no response arrived (connection error, timeout, abort). */
  status?: number;
  /** From sending to the answer read (the body handed over, for a stream); the limiter's wait apart. */
  durationMs: number;
  /** Time this attempt waited for the rate limiter. */
  limiterWaitMs: number;
  /** Set when the attempt will be retried: why, and after how long. */
  retry?: { reason: string; delayMs: number };
  error?: string;
  /** With `validateResponses: "warn"`: where the answer left its operation's response schema. */
  validation?: ResponseIssue[];
  /** A helper's remark on the call's answer (then `attempt` is 0). */
  notice?: string;
}

export type Logger = (entry: LogEntry) => void;

/** An attempt as the call loop saw it end: the entry, with the error itself. */
export type AttemptRecord = Omit<LogEntry, "error"> & { error?: unknown };

/**
 * Tells the logger about one attempt, once it is known whether it will be retried: the one
 * place attempts are logged.
 */
export function logAttempt(logger: Logger, record: AttemptRecord): void {
  const { error, ...rest } = record;
  const entry: LogEntry =
    "error" in record
      ? { ...rest, error: error instanceof Error ? error.message : String(error) }
      : rest;
  try {
    logger(entry);
  } catch {
    // A faulty logger must not turn a successful call into a failed one.
  }
}
