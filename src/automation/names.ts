/**
 * Names instead of ids: "org/workspace" references, and pipelines, compute environments,
 * credentials, datasets, labels and secrets by name within a workspace. Lists are fetched once
 * per client and kept (a name not found in a kept list fetches it again once, so resources
 * created since are found); a missing or ambiguous name is a typed error naming the near ones.
 */
import type { SeqeraClient } from "../client/client.js";
import {
  collect,
  listWorkspaces,
  lookup,
  resolveWorkspaceId,
  workspaceIdText,
  type Kind,
} from "../client/names.js";
import type {
  ComputeEnvSummary,
  Credentials,
  Dataset,
  Label,
  Pipeline,
  PipelineSecret,
} from "./schema.js";

/** A workspace: its numeric id, or "org/workspace" (the organization's and workspace's names). */
export type WorkspaceRef = number | string;

export interface NameOptions {
  /** The workspace to look in; default the client's (`workspaceId`, TOWER_WORKSPACE_ID), else the personal one. */
  workspaceId?: WorkspaceRef;
  signal?: AbortSignal;
}

/**
 * The workspace id a helper sends: the option's, else the client's, else undefined (personal).
 * As digits, sent with each call's `workspace` option: ids past 2^53 (9007199254740993) would
 * lose digits as numbers.
 */
export async function workspaceIdOf(
  client: SeqeraClient,
  ref: WorkspaceRef | undefined,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const value = ref ?? client.config.workspaceRef ?? client.config.workspaceId;
  if (value === undefined) return undefined;
  return workspaceIdText(client, String(value), { signal });
}

const PIPELINES: Kind<Pipeline> = {
  kind: "pipeline",
  list: (client, workspaceId, signal) =>
    collect(client.paginate("/pipelines", { workspace: workspaceId, signal })),
  names: (p) => [p.name ?? ""],
  id: (p) => String(p.pipelineId),
};

const COMPUTE_ENVS: Kind<ComputeEnvSummary> = {
  kind: "compute environment",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/compute-envs", { workspace: workspaceId, signal })).computeEnvs ?? [],
  names: (c) => [c.name ?? ""],
  id: (c) => c.id ?? "",
};

const CREDENTIALS: Kind<Credentials> = {
  kind: "credentials",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/credentials", { workspace: workspaceId, signal })).credentials ?? [],
  names: (c) => [c.name],
  id: (c) => c.id ?? "",
};

const DATASETS: Kind<Dataset> = {
  kind: "dataset",
  list: (client, workspaceId, signal) =>
    collect(client.paginate("/datasets", { workspace: workspaceId, signal })),
  names: (d) => [d.name ?? ""],
  id: (d) => d.id ?? "",
};

const LABELS: Kind<Label> = {
  kind: "label",
  list: (client, workspaceId, signal) =>
    collect(client.paginate("/labels", { workspace: workspaceId, signal })),
  names: (l) => (l.value == null ? [l.name ?? ""] : [l.name ?? "", `${l.name}=${l.value}`]),
  id: (l) => String(l.id),
};

const SECRETS: Kind<PipelineSecret> = {
  kind: "secret",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/pipeline-secrets", { workspace: workspaceId, signal })).pipelineSecrets ??
    [],
  names: (s) => [s.name],
  id: (s) => String(s.id),
};

/** A `find` function for one kind: the one resource with that name in the workspace. */
function finder<T>(kind: Kind<T>) {
  return async (client: SeqeraClient, name: string, options: NameOptions = {}): Promise<T> => {
    const workspaceId = await workspaceIdOf(client, options.workspaceId, options.signal);
    return lookup(client, kind, name, workspaceId, options.signal);
  };
}

/** The pipeline of the workspace's Launchpad with that name. */
export const findPipeline = finder(PIPELINES);
/** The compute environment with that name. */
export const findComputeEnv = finder(COMPUTE_ENVS);
/** The credentials with that name. */
export const findCredentials = finder(CREDENTIALS);
/** The dataset with that name. */
export const findDataset = finder(DATASETS);
/** The label with that name, or "name=value" for a resource label. */
export const findLabel = finder(LABELS);
/** The pipeline secret with that name. */
export const findSecret = finder(SECRETS);

export { listWorkspaces, resolveWorkspaceId };
export { nearNames } from "../core/near-names.js";
