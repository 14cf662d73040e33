import { SeqeraError } from "./seqera-error.js";
/** A wait (for a run, a compute environment) reached its `maxWaitMs` first. */
export class WaitTimeoutError extends SeqeraError {
  /** What was waited for: "run" or "compute environment". */
  readonly resource: string;
  readonly id: string;
  readonly maxWaitMs: number;
  /** The last status seen; undefined if no answer came in time. */
  readonly lastStatus: string | undefined;

  constructor(resource: string, id: string, maxWaitMs: number, lastStatus: string | undefined) {
    super(
      `Gave up waiting for ${resource} ${id} after ${maxWaitMs} ms: ` +
        (lastStatus ? `still ${lastStatus}` : "no status received"),
    );
    this.resource = resource;
    this.id = id;
    this.maxWaitMs = maxWaitMs;
    this.lastStatus = lastStatus;
  }
}
WaitTimeoutError.prototype.name = "WaitTimeoutError";
