import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/**
 * An attempt took longer than its timeout (headers and body together; `status` is set when the
 * status arrived and the body then stalled), or, with `phase: "rate-limit"`, the call waited
 * its whole timeout for a rate-limit slot (`waitedMs`) and was not sent.
 */
export class TimeoutError extends SeqeraApiError {
  readonly timeoutMs: number;
  /** What ran out of time: the attempt on the wire, or the call's wait for a rate-limit slot. */
  readonly phase: "attempt" | "rate-limit";
  /** With `phase: "rate-limit"`: how long the call waited for a slot, in ms. */
  readonly waitedMs: number | undefined;

  constructor(
    message: string,
    details: SeqeraApiErrorDetails & {
      timeoutMs: number;
      phase?: "attempt" | "rate-limit";
      waitedMs?: number;
    },
  ) {
    super(message, details);
    this.timeoutMs = details.timeoutMs;
    this.phase = details.phase ?? "attempt";
    this.waitedMs = details.waitedMs;
  }
}
TimeoutError.prototype.name = "TimeoutError";
