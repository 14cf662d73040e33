import { randomId } from "../ids.js";
import type { RunEnding } from "./runs.js";
import { numericIds } from "./store.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";

/**
 * A pipeline's saved launch configuration: the fields of a launch request (`computeEnvId`,
 * `workDir`, `revision`, `paramsText`, `configProfiles`, ...), kept as given.
 */
export type LaunchConfig = Record<string, unknown> & {
  computeEnvId?: string;
  workDir?: string;
  revision?: string;
  paramsText?: string;
  configProfiles?: string[];
};

export interface Pipeline extends Entity<number> {
  name: string;
  description?: string;
  /** The repository URL, the launch's `pipeline`. */
  repository: string;
  /** The saved launch's id, sent back as `launch.id` when launching it. */
  launchId: string;
  launch: LaunchConfig;
  labelIds: number[];
  /** SHARED: seen and launched from every workspace of its organization. */
  visibility: "PRIVATE" | "SHARED";
  /** How runs launched from it (relaunches included) end when advanced; default SUCCEEDED. */
  ending?: RunEnding;
}

export interface PipelineInit extends ScopedInit {
  id?: number;
  name: string;
  description?: string;
  /** Default `https://github.com/nf-core/<name>`, or `launch.pipeline` when given. */
  repository?: string;
  launch?: LaunchConfig;
  labelIds?: number[];
  /**
   * Default PRIVATE; SHARED pipelines are listed (`visibility=all`), described and launched
   * (`sourceWorkspaceId`) from every workspace of the organization, as the service shares them.
   */
  visibility?: "PRIVATE" | "SHARED";
  /** How runs launched from it (relaunches included) end when advanced; default SUCCEEDED. */
  ending?: RunEnding;
}

export class PipelineStore extends ScopedStore<Pipeline, PipelineInit> {
  constructor(workspace: WorkspaceResolver) {
    super(numericIds(1), workspace);
  }

  protected build(base: Pipeline, init: PipelineInit): Pipeline {
    const { pipeline, ...launch } = init.launch ?? {};
    return {
      ...base,
      name: init.name,
      ...(init.description !== undefined && { description: init.description }),
      repository:
        init.repository ??
        (typeof pipeline === "string" ? pipeline : `https://github.com/nf-core/${init.name}`),
      launchId: randomId(22),
      launch,
      labelIds: init.labelIds ?? [],
      visibility: init.visibility ?? "PRIVATE",
      ...(init.ending && { ending: init.ending }),
    };
  }

  byLaunchId(launchId: string): Pipeline | undefined {
    return this.all().find((p) => p.launchId === launchId);
  }
}
