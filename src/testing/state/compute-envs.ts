import { randomId } from "../ids.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

export type ComputeEnvStatus =
  "CREATING" | "AVAILABLE" | "DISABLED" | "DELETING" | "ERRORED" | "INVALID" | "DELETED";

export interface ComputeEnv extends Entity<string> {
  name: string;
  /** The schema's platform ids: "aws-batch", "google-batch", "local-platform", ... */
  platform: string;
  status: ComputeEnvStatus;
  /** The workspace's default for launches without `computeEnvId`; at most one per workspace. */
  primary: boolean;
  credentialsId?: string;
  workDir: string;
  region?: string;
  description?: string;
  /** The error message shown with ERRORED or INVALID. */
  message?: string;
  labelIds: number[];
  /**
   * The platform's settings as created (`forge`, `waveEnabled`, `fusion2Enabled`,
   * `headQueue`...), answered in its `config`; `workDir` and `region` are kept above.
   */
  config: Record<string, unknown>;
}

export interface ComputeEnvInit extends ScopedInit {
  id?: string;
  name: string;
  /** Default "aws-batch". */
  platform?: string;
  /** Default "AVAILABLE" (one created through the API starts "CREATING"). */
  status?: ComputeEnvStatus;
  /** Default false, except for the first compute env of a workspace. */
  primary?: boolean;
  credentialsId?: string;
  /** Default "s3://emulated-bucket/work". */
  workDir?: string;
  region?: string;
  description?: string;
  message?: string;
  labelIds?: number[];
  /** The platform's other settings, as a create request's `computeEnv.config` sends them. */
  config?: Record<string, unknown>;
}

export class ComputeEnvStore extends ScopedStore<ComputeEnv, ComputeEnvInit> {
  constructor(workspace: WorkspaceResolver) {
    super(() => randomId(22), workspace);
  }

  protected build(base: ComputeEnv, init: ComputeEnvInit): ComputeEnv {
    const first = this.list(base.workspaceId).length === 0;
    const env: ComputeEnv = {
      ...base,
      name: init.name,
      platform: init.platform ?? "aws-batch",
      status: init.status ?? "AVAILABLE",
      primary: false,
      workDir: init.workDir ?? "s3://emulated-bucket/work",
      labelIds: init.labelIds ?? [],
      config: init.config ?? {},
    };
    for (const key of ["credentialsId", "region", "description", "message"] as const) {
      if (init[key] !== undefined) env[key] = init[key];
    }
    if (init.primary ?? first) this.clearPrimary(base.workspaceId);
    env.primary = init.primary ?? first;
    return env;
  }

  /** The workspace's primary compute env, used by a launch without `computeEnvId`. */
  primary(workspaceId: number | undefined): ComputeEnv | undefined {
    return this.list(workspaceId).find((c) => c.primary);
  }

  /** Makes a compute env its workspace's primary one, as POST .../primary does. */
  setPrimary(id: string): ComputeEnv {
    const env = this.update(id, {});
    this.clearPrimary(env.workspaceId);
    env.primary = true;
    return env;
  }

  /** Moves a compute env to another status, as the service does while creating it. */
  setStatus(id: string, status: ComputeEnvStatus, message?: string): ComputeEnv {
    const env = this.update(id, { status });
    if (message === undefined) delete env.message;
    else env.message = message;
    return env;
  }

  private clearPrimary(workspaceId: number | undefined): void {
    for (const other of this.list(workspaceId)) other.primary = false;
  }
}
