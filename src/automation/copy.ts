/** Copying a Launchpad pipeline to another workspace, its compute environment mapped by name. */
import type { SeqeraClient } from "../client/client.js";
import { lookupOptional } from "../client/lookup.js";
import { toPipelineRequest } from "./convert.js";
import { computeEnvConfig, savedLaunch } from "./launch-reads.js";
import { AVAILABLE_COMPUTE_ENVS, find, type WorkspaceRef } from "./names.js";

export interface CopyPipelineOptions {
  /** The workspace to copy it to: an id or "organization/workspace". */
  to: WorkspaceRef;
  /** The copy's name; default the pipeline's. */
  name?: string;
  signal?: AbortSignal;
}

export interface CopiedPipeline {
  /** The new pipeline's id, in `to`, as digits (int64-safe). */
  pipelineId: string;
  /** The compute environment the copy launches on, in `to`. */
  computeEnvId: string;
  /**
   * "name": `to` has an AVAILABLE compute environment named as the saved one; "primary": it has
   * none, so the copy uses its primary.
   */
  computeEnvBy: "name" | "primary";
}

/**
 * Copies the pipeline named `pipeline` from the client's workspace to another (`POST
 * /pipelines`) with its launch configuration: the compute environment is the AVAILABLE one of
 * the same name in `to`, else `to`'s primary, and the copy runs in that compute environment's
 * work directory. What belongs to the source workspace (launch id, schema, optimization,
 * labels) is not copied.
 *
 * @example
 * await copyPipeline(client.withWorkspace("acme/prod"), "rnaseq", { to: "acme/dev" });
 */
export async function copyPipeline(
  client: SeqeraClient,
  pipeline: string,
  options: CopyPipelineOptions,
): Promise<CopiedPipeline> {
  const { signal } = options;
  const target = client.withWorkspace(options.to);
  const found = await savedLaunch(client, pipeline, {}, signal);
  const savedName = found.launch.computeEnv?.name;
  const sameName = savedName
    ? await lookupOptional(target, AVAILABLE_COMPUTE_ENVS, savedName, signal)
    : undefined;
  const computeEnvId = sameName?.id ?? (await find.primaryComputeEnv(target, { signal })).id;
  const computeEnv = await computeEnvConfig(target, computeEnvId, signal);
  const body = toPipelineRequest(found.pipeline, found.launch, {
    computeEnvId,
    // None there: the service's default for that compute environment, not the source's bucket.
    workDir: computeEnv?.config?.workDir ?? null,
  });
  if (options.name) body.name = options.name;
  const created = await target.POST("/pipelines", { body, signal });
  return {
    pipelineId: String(created.pipeline!.pipelineId),
    computeEnvId,
    computeEnvBy: sameName ? "name" : "primary",
  };
}
