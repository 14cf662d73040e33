import { randomId, serviceTimestamp } from "./ids.js";

export type WorkflowStatus =
  "SUBMITTED" | "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELLED" | "UNKNOWN";

const ACTIVE: ReadonlySet<WorkflowStatus> = new Set(["SUBMITTED", "RUNNING"]);

/** One run the emulator knows, launched through the API or added by a test. */
export interface WorkflowRun {
  id: string;
  /** The workspace it was launched in; undefined for the user's own context. */
  workspaceId?: number;
  status: WorkflowStatus;
  runName: string;
  /** The pipeline it runs (launch.pipeline), used as the project name. */
  pipeline: string;
  /** The launch request's `launch` object, as sent. */
  launch: Record<string, unknown>;
  dateCreated: string;
  lastUpdated: string;
}

export interface WorkflowInit {
  workspaceId?: number;
  status?: WorkflowStatus;
  runName?: string;
  launch?: Record<string, unknown>;
}

export function isActive(run: WorkflowRun): boolean {
  return ACTIVE.has(run.status);
}

/** The workflow runs of one emulator, newest first in listings, as the service lists them. */
export class WorkflowStore {
  private readonly runs = new Map<string, WorkflowRun>();
  private launched = 0;

  /** Adds a run, as a launch does; tests use it to start from existing runs. */
  add(init: WorkflowInit = {}): WorkflowRun {
    const launch = init.launch ?? {};
    const now = serviceTimestamp(new Date());
    this.launched++;
    const run: WorkflowRun = {
      id: randomId(14),
      status: init.status ?? "SUBMITTED",
      runName: init.runName ?? stringOr(launch.runName, `emulated_run_${this.launched}`),
      pipeline: stringOr(launch.pipeline, "https://github.com/nextflow-io/hello"),
      launch,
      dateCreated: now,
      lastUpdated: now,
    };
    if (init.workspaceId !== undefined) run.workspaceId = init.workspaceId;
    this.runs.set(run.id, run);
    return run;
  }

  get(id: string): WorkflowRun | undefined {
    return this.runs.get(id);
  }

  /** Runs of a workspace (undefined: the user's own context), newest first. */
  list(workspaceId?: number): WorkflowRun[] {
    return [...this.runs.values()].filter((r) => r.workspaceId === workspaceId).reverse();
  }

  /** Moves a run to another status, as the service does while it runs; tests drive it. */
  setStatus(id: string, status: WorkflowStatus): WorkflowRun {
    const run = this.runs.get(id);
    if (!run) throw new Error(`No workflow run ${id}`);
    run.status = status;
    run.lastUpdated = serviceTimestamp(new Date());
    return run;
  }

  delete(id: string): boolean {
    return this.runs.delete(id);
  }
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" && value !== "" ? value : fallback;
}
