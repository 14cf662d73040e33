import type { Endings, RunEnding } from "./runs.js";
import { numericIds } from "./store.js";
import { ScopedStore, type ScopedInit, type WorkspaceResolver } from "./scoped.js";
import type { Entity } from "./store.js";
import {
  defaultVersion,
  initialVersions,
  type LaunchConfig,
  type PipelineVersion,
  type PipelineVersionInit,
} from "./pipeline-versions.js";

export interface Pipeline extends Entity<number> {
  name: string;
  description?: string;
  /** The repository URL, the launch's `pipeline`. */
  repository: string;
  /** Its saved launches, one per version (pipeline-versions.ts); one is the default. */
  versions: PipelineVersion[];
  /** The default version's launch id, which a launch without `versionId` names. */
  readonly launchId: string;
  /** The default version's saved launch. */
  readonly launch: LaunchConfig;
  labelIds: number[];
  /** SHARED: seen and launched from every workspace of its organization. */
  visibility: "PRIVATE" | "SHARED";
  /** How runs launched from it (relaunches included) end when advanced; default SUCCEEDED. */
  ending?: Endings;
}

export interface PipelineInit extends ScopedInit {
  id?: number;
  name: string;
  description?: string;
  /** Default `https://github.com/nf-core/<name>`, or `launch.pipeline` when given. */
  repository?: string;
  /**
   * The saved launch: the fields of a launch request (`computeEnvId`, `workDir`, `revision`,
   * `paramsText`, `configProfiles`, ...), kept as given.
   */
  launch?: LaunchConfig;
  /**
   * Its versions, each launch merged over `launch`; `name` absent or null is a draft, and
   * `isDefault` marks the default (else the first named one). Default: one version
   * `<name>-1`, published and the default, as adding a pipeline makes.
   */
  versions?: PipelineVersionInit[];
  labelIds?: number[];
  /**
   * Default PRIVATE; SHARED pipelines are listed (`visibility=all`), described and launched
   * (`sourceWorkspaceId`) from every workspace of the organization, as the service shares them.
   */
  visibility?: "PRIVATE" | "SHARED";
  /**
   * How runs launched from it (relaunches included) end when advanced, one ending or a list
   * taken in turn; a version's own `ending` comes first. Default SUCCEEDED.
   */
  ending?: Endings;
}

export class PipelineStore extends ScopedStore<Pipeline, PipelineInit> {
  /** How many runs each list of endings has given an ending to. */
  readonly #taken = new WeakMap<RunEnding[], number>();

  constructor(workspace: WorkspaceResolver) {
    super(numericIds(1), workspace);
  }

  /**
   * The ending of the next run launched from the pipeline's version (the default one when
   * none is named): the version's, else the pipeline's; a list gives its endings in turn.
   */
  nextEnding(pipeline: Pipeline, version?: PipelineVersion): RunEnding | undefined {
    const endings = version?.ending ?? pipeline.ending;
    if (!Array.isArray(endings)) return endings;
    const taken = this.#taken.get(endings) ?? 0;
    this.#taken.set(endings, taken + 1);
    return endings[taken % endings.length];
  }

  protected build(base: Pipeline, init: PipelineInit): Pipeline {
    const { pipeline, ...launch } = init.launch ?? {};
    const built = {
      ...base,
      name: init.name,
      ...(init.description !== undefined && { description: init.description }),
      repository:
        init.repository ??
        (typeof pipeline === "string" ? pipeline : `https://github.com/nf-core/${init.name}`),
      versions: initialVersions(init.name, launch, init.versions),
      labelIds: init.labelIds ?? [],
      visibility: init.visibility ?? "PRIVATE",
      ...(init.ending && { ending: init.ending }),
    };
    return Object.defineProperties(built, {
      launchId: { get: () => defaultVersion(built.versions).id, enumerable: false },
      launch: { get: () => defaultVersion(built.versions).launch, enumerable: false },
    }) as Pipeline;
  }

  /** The pipeline one of whose versions has this launch id. */
  byLaunchId(launchId: string): Pipeline | undefined {
    return this.all().find((p) => p.versions.some((v) => v.id === launchId));
  }
}
