import {
  AmbiguousNameError,
  ConfigurationError,
  NameNotFoundError,
  ResumeUnavailableError,
  RunFailedError,
  SeqeraApiError,
  TimeoutError,
  WaitTimeoutError,
} from "../index.js";
import { oneLine } from "./client-options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { DeadlineError, InterruptedError, UsageError } from "./cli-errors.js";

/** The exit code for a failure, by the categories of EXIT. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof RunFailedError) return EXIT.runFailed;
  if (error instanceof InterruptedError)
    return error.signal === "SIGINT" ? EXIT.sigint : EXIT.sigterm;
  if (
    error instanceof UsageError ||
    error instanceof ConfigurationError ||
    // A name or run the command named does not fit: the command needs changing.
    error instanceof NameNotFoundError ||
    error instanceof AmbiguousNameError ||
    error instanceof ResumeUnavailableError
  ) {
    return EXIT.usage;
  }
  if (
    error instanceof TimeoutError ||
    error instanceof WaitTimeoutError ||
    error instanceof DeadlineError
  ) {
    return EXIT.timeout;
  }
  if (error instanceof SeqeraApiError) {
    if (error.status === 401 || error.status === 403) return EXIT.auth;
    if (error.status === 400) return EXIT.usage;
  }
  return EXIT.failure;
}

/**
 * The one line printed on stderr: the status and operation of an API error, its message and
 * Error ID. The client already keeps the token out of every message.
 */
export function errorLine(error: unknown): string {
  if (error instanceof SeqeraApiError) {
    const status = error.status === undefined ? "" : `${error.status} `;
    const id = error.errorId === undefined ? "" : ` (Error ID: ${error.errorId})`;
    return `seqera-api: ${status}${error.operationId}: ${oneLine(error.message)}${id}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `seqera-api: ${oneLine(message)}`;
}
