import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/**
 * HTTP 403. The service answers 403 for an invalid or expired token, a missing permission, a
 * resource in another workspace and a path it does not serve, so the message names them all,
 * with the workspace the call was sent to.
 */
export class ForbiddenError extends SeqeraApiError {
  /** The `workspaceId` the request carried, or undefined when it carried none. */
  readonly workspaceId: string | undefined;
  /** What the service said, if anything (its body is often empty), without its Error ID. */
  readonly serverMessage: string | undefined;

  constructor(
    message: string,
    details: SeqeraApiErrorDetails & { workspaceId?: string; serverMessage?: string },
  ) {
    super(message, details);
    this.workspaceId = details.workspaceId;
    this.serverMessage = details.serverMessage;
  }
}
ForbiddenError.prototype.name = "ForbiddenError";
