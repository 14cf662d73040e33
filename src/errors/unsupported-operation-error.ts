import { SeqeraError } from "./seqera-error.js";
/**
 * An operation (or a field) that the API release this client was built from does not have: the
 * types and the operation table are generated per release, and a helper, CLI command or emulator
 * route that needs what a release lacks says so with this error rather than a 403 from the
 * server. The fix is the package line of a release that has it (docs/releases.md).
 */
export class UnsupportedOperationError extends SeqeraError {
  /** "GET /labels", or "field WorkflowLaunchRequest.nextflowVersion". */
  readonly operation: string;
  /** The API release this client was built from (SCHEMA_VERSION). */
  readonly release: string;

  constructor(operation: string, release: string) {
    super(
      `${operation} is not in API ${release}, the release this client was built from; ` +
        `use the seqera-api-client line of a release that has it if your server does ` +
        `(checkCompatibility names the line for a server)`,
    );
    this.operation = operation;
    this.release = release;
  }
}
UnsupportedOperationError.prototype.name = "UnsupportedOperationError";
