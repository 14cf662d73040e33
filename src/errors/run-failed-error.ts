import { SeqeraError } from "./seqera-error.js";
import type { Run, RunStatus, Task } from "../schema/types.js";

/** A run that was waited for ended without success (FAILED, CANCELLED or UNKNOWN). */
export class RunFailedError extends SeqeraError {
  readonly workflowId: string;
  readonly status: RunStatus | undefined;
  /** The run's own error message, when it reported one. */
  readonly errorMessage: string | undefined;
  /** The run's tasks that ended FAILED (empty when none did, e.g. a cancelled run). */
  readonly failedTasks: Task[];
  /** The run as last described. */
  readonly run: Run;

  constructor(workflowId: string, run: Run, failedTasks: Task[]) {
    const reason = run.errorMessage ? `: ${run.errorMessage}` : "";
    const tasks = failedTasks.length
      ? ` (failed tasks: ${failedTasks.map((t) => t.name ?? t.taskId).join(", ")})`
      : "";
    super(`Run ${workflowId} ended ${run.status ?? "without a status"}${reason}${tasks}`);
    this.workflowId = workflowId;
    this.status = run.status ?? undefined;
    this.errorMessage = run.errorMessage ?? undefined;
    this.failedTasks = failedTasks;
    this.run = run;
  }
}
RunFailedError.prototype.name = "RunFailedError";
