import { SeqeraError } from "../../errors/seqera-error.js";
/** A run cannot be resumed: the service holds no commit to resume it from. */
export class ResumeUnavailableError extends SeqeraError {
  readonly workflowId: string;

  constructor(workflowId: string) {
    super(
      `Run ${workflowId} cannot be resumed: it reported no commit id. Relaunch it without resume.`,
    );
    this.workflowId = workflowId;
  }
}
ResumeUnavailableError.prototype.name = "ResumeUnavailableError";
