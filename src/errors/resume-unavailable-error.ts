import { SeqeraError } from "./seqera-error.js";
import { toldAs } from "./settings.js";
/** A run cannot be resumed: the service holds no commit to resume it from. */
export class ResumeUnavailableError extends SeqeraError {
  readonly workflowId: string;

  constructor(workflowId: string) {
    super();
    this.workflowId = workflowId;
    const cannot = `Run ${workflowId} cannot be resumed: it reported no commit id.`;
    toldAs(this, (front) =>
      front === "cli"
        ? `${cannot} Run it again from scratch: seqera-api relaunch ${workflowId} --no-resume`
        : `${cannot} Relaunch it without resume.`,
    );
  }
}
ResumeUnavailableError.prototype.name = "ResumeUnavailableError";
