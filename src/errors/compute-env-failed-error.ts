import { SeqeraError } from "./seqera-error.js";
import type { ComputeEnv, ComputeEnvStatus } from "../schema/types.js";

/** A compute environment that was waited for can no longer become AVAILABLE (ERRORED, INVALID, …). */
export class ComputeEnvFailedError extends SeqeraError {
  readonly computeEnvId: string;
  readonly status: ComputeEnvStatus | undefined;
  /** The service's explanation, when it gave one. */
  readonly reason: string | undefined;
  readonly computeEnv: ComputeEnv;

  constructor(computeEnvId: string, computeEnv: ComputeEnv) {
    const reason = computeEnv.message ?? undefined;
    super(
      `Compute environment ${computeEnv.name ?? computeEnvId} is ${computeEnv.status}` +
        (reason ? `: ${reason}` : ""),
    );
    this.computeEnvId = computeEnvId;
    this.status = computeEnv.status ?? undefined;
    this.reason = reason;
    this.computeEnv = computeEnv;
  }
}
ComputeEnvFailedError.prototype.name = "ComputeEnvFailedError";
