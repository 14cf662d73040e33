import {
  AmbiguousNameError,
  ComputeEnvFailedError,
  ConfigurationError,
  ForbiddenError,
  NameNotFoundError,
  NextflowVersionError,
  ResumeUnavailableError,
  RunFailedError,
  SeqeraApiError,
  TimeoutError,
  WaitTimeoutError,
} from "../index.js";
import { oneLine } from "./client-options.js";
import type { CommandLine, CommandName } from "./command-line.js";
import { findTarget } from "./operation-target.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { DeadlineError, InterruptedError, UsageError } from "../errors/cli-errors.js";
import { tell } from "../errors/settings.js";

/** The exit code for a failure, by the categories of EXIT. */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof RunFailedError || error instanceof ComputeEnvFailedError) {
    return EXIT.runFailed;
  }
  if (error instanceof InterruptedError)
    return error.signal === "SIGINT" ? EXIT.sigint : EXIT.sigterm;
  if (
    error instanceof UsageError ||
    error instanceof ConfigurationError ||
    // A name or run the command named does not fit: the command needs changing.
    error instanceof NameNotFoundError ||
    error instanceof AmbiguousNameError ||
    error instanceof ResumeUnavailableError ||
    error instanceof NextflowVersionError
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

/** What the user ran: a command, and for an operation call the operation it named. */
export interface Ran {
  command: CommandName | undefined;
  operationId?: string;
}

/** What a parsed command line ran; for a call, the operation it named, if it names one. */
export function ranBy(line: CommandLine | undefined): Ran {
  if (line?.command !== "call") return { command: line?.command };
  try {
    return { command: "call", operationId: findTarget(line.args).info.operationId };
  } catch {
    return { command: "call" };
  }
}

/**
 * The one line printed on stderr: the status and operation of an API error, its message and
 * Error ID. A failure of another request than the one the user named (a name lookup, a step of
 * a lifecycle command) is reported under the command the user ran, with the request that failed.
 * The client already keeps the token out of every message.
 */
export function errorLine(error: unknown, ran: Ran = { command: undefined }): string {
  if (error instanceof SeqeraApiError) {
    const status = error.status === undefined ? "" : `${error.status} `;
    const id = error.errorId === undefined ? "" : ` (Error ID: ${error.errorId})`;
    const message = oneLine(inCliTerms(error, ran));
    if (ran.command === undefined || ran.operationId === error.operationId) {
      return `seqera-api: ${status}${error.operationId}: ${message}${id}`;
    }
    const command = ran.command === "call" ? ran.operationId : ran.command;
    // Messages of failures on the wire name the request already ("GET /user-info failed: …").
    const where = `${error.method} ${error.path}`;
    const said = message.startsWith(`${where} `) ? message : `${where}: ${message}`;
    return `seqera-api ${command}: ${status}${said}${id}`;
  }
  return `seqera-api: ${oneLine(tell(error, "cli"))}`;
}

/**
 * A 403 explained by what it can be in its context, with the variables and flags that change
 * it: the library's message lists every cause the service hides behind a 403.
 */
function inCliTerms(error: SeqeraApiError, ran: Ran): string {
  if (!(error instanceof ForbiddenError)) return tell(error, "cli");
  const said = error.serverMessage ? ` Server said: ${error.serverMessage}` : "";
  // The one request that needs neither a permission nor a workspace: only the token is refused.
  if (error.path === "/user-info") {
    return `Forbidden: TOWER_ACCESS_TOKEN was refused (invalid, expired or revoked), the only cause of a 403 there; create a new token under Your tokens in the Seqera Platform UI.${said}`;
  }
  if (ran.command === "call" || ran.command === undefined) return tell(error, "cli");
  const workspace =
    error.workspaceId === undefined
      ? "the token owner's personal workspace (no --workspace or TOWER_WORKSPACE_ID)"
      : `workspace ${error.workspaceId} (--workspace or TOWER_WORKSPACE_ID)`;
  const causes = "or TOWER_ACCESS_TOKEN is invalid or expired, or lacks a permission this needs";
  if (!error.path.includes("{"))
    return `Forbidden: the token cannot reach ${workspace}, ${causes}.${said}`;
  const what = NOUNS[error.path.split("/")[1] ?? ""] ?? "the resource";
  return `Forbidden: ${what} is not in ${workspace}, ${causes}.${said}`;
}

/** What a path's first segment names, for a 403 on one of them. */
const NOUNS: Readonly<Record<string, string>> = {
  workflow: "the run",
  pipelines: "the pipeline",
  "compute-envs": "the compute environment",
  datasets: "the dataset",
  labels: "the label",
  credentials: "the credentials",
};
