/**
 * Names instead of ids: "org/workspace" references, and pipelines, compute environments,
 * credentials, datasets, labels and secrets by name within a workspace. Pipelines are searched
 * by the service (`search` and `visibility=all`, so pipelines shared from the organization are
 * found too); the other kinds are listed. What was fetched is kept per client: a name not found
 * in a kept answer asks again once, so resources created since are found, and `withFresh` asks
 * again when a kept id answers 403 or 404. A missing or ambiguous name is a typed error naming
 * the near ones; `{ optional: true }` gives undefined for a missing one instead.
 */
import type { SeqeraClient } from "../client/client.js";
import {
  WORKSPACES,
  collect,
  forget,
  listWorkspaces,
  lookup,
  lookupOptional,
  resolveWorkspaceId,
  type Kind,
} from "../client/names.js";
import { ForbiddenError } from "../errors/forbidden-error.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
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

export interface FindOptions extends NameOptions {
  /** Resolve with undefined when nothing has that name, instead of rejecting with NameNotFoundError. */
  optional?: boolean;
}

/** A workspace the user belongs to, with its organization. */
export interface WorkspaceInfo {
  orgId: number;
  orgName: string;
  workspaceId: number;
  workspaceName: string;
}

/** The workspace id a helper sends: the option's, else the client's, else undefined (personal). */
export async function workspaceIdOf(
  client: SeqeraClient,
  ref: WorkspaceRef | undefined,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const value = ref ?? client.config.workspaceRef ?? client.config.workspaceId;
  if (value === undefined) return undefined;
  return typeof value === "number" ? value : resolveWorkspaceId(client, value, { signal });
}

/**
 * A kind the service searches by name (`search=<name>&visibility=all`, as tw asks, so that
 * resources shared from the organization are found): every page of the answer; after a miss,
 * one page of the whole list for near names.
 */
function searchedKind<T extends { name?: string | null }>(
  kind: string,
  path: "/pipelines" | "/datasets",
  id: (item: T) => string,
): Kind<T> {
  const list = (
    client: SeqeraClient,
    query: { workspaceId: number | undefined; search?: string },
    page: { pageSize: number; limit?: number },
    signal: AbortSignal | undefined,
  ) =>
    collect(
      client.paginate(path, {
        params: { query: { ...query, visibility: "all" } },
        ...page,
        signal,
      }),
    ) as Promise<T[]>;
  return {
    kind,
    searched: true,
    list: (client, workspaceId, signal, name) =>
      list(client, { workspaceId, search: name }, { pageSize: 50 }, signal),
    suggest: (client, workspaceId, signal) =>
      list(client, { workspaceId }, { pageSize: 100, limit: 100 }, signal),
    names: (item) => [item.name ?? ""],
    id,
  };
}

const PIPELINES = searchedKind<Pipeline>("pipeline", "/pipelines", (p) => String(p.pipelineId));

const COMPUTE_ENVS: Kind<ComputeEnvSummary> = {
  kind: "compute environment",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/compute-envs", { params: { query: { workspaceId } }, signal }))
      .computeEnvs ?? [],
  names: (c) => [c.name ?? ""],
  id: (c) => c.id ?? "",
};

/** The compute environments a run can use (`status=AVAILABLE`), by name or id, as tw finds them. */
const AVAILABLE_COMPUTE_ENVS: Kind<ComputeEnvSummary> = {
  kind: "compute environment",
  list: async (client, workspaceId, signal) =>
    (
      await client.GET("/compute-envs", {
        params: { query: { workspaceId, status: "AVAILABLE" } },
        signal,
      })
    ).computeEnvs ?? [],
  names: (c) => [c.name ?? "", c.id ?? ""],
  id: (c) => c.id ?? "",
};

const CREDENTIALS: Kind<Credentials> = {
  kind: "credentials",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/credentials", { params: { query: { workspaceId } }, signal }))
      .credentials ?? [],
  names: (c) => [c.name ?? ""],
  id: (c) => c.id ?? "",
};

const DATASETS = searchedKind<Dataset>("dataset", "/datasets", (d) => d.id ?? "");

const LABELS: Kind<Label> = {
  kind: "label",
  list: (client, workspaceId, signal) =>
    collect(client.paginate("/labels", { params: { query: { workspaceId } }, signal })),
  names: (l) => (l.value == null ? [l.name ?? ""] : [l.name ?? "", `${l.name}=${l.value}`]),
  id: (l) => String(l.id),
};

const SECRETS: Kind<PipelineSecret> = {
  kind: "secret",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/pipeline-secrets", { params: { query: { workspaceId } }, signal }))
      .pipelineSecrets ?? [],
  names: (s) => [s.name ?? ""],
  id: (s) => String(s.id),
};

/** A find function: the one resource of a kind with that name, or (optional) undefined. */
export interface Finder<T> {
  (
    client: SeqeraClient,
    name: string,
    options: FindOptions & { optional: true },
  ): Promise<T | undefined>;
  (client: SeqeraClient, name: string, options?: FindOptions & { optional?: false }): Promise<T>;
}

function finder<T>(kind: Kind<T>): Finder<T> {
  return (async (client: SeqeraClient, name: string, options: FindOptions = {}) => {
    const workspaceId = await workspaceIdOf(client, options.workspaceId, options.signal);
    return options.optional
      ? lookupOptional(client, kind, name, workspaceId, options.signal)
      : lookup(client, kind, name, workspaceId, options.signal);
  }) as Finder<T>;
}

/**
 * The pipeline with that name in the workspace's Launchpad, or shared with it from the
 * organization (its `workspaceId` is then the one it lives in).
 */
export const findPipeline = finder(PIPELINES);
/** The compute environment with that name (any status). */
export const findComputeEnv = finder(COMPUTE_ENVS);
/** The credentials with that name. */
export const findCredentials = finder(CREDENTIALS);
/** The dataset with that name. */
export const findDataset = finder(DATASETS);
/** The label with that name, or "name=value" for a resource label. */
export const findLabel = finder(LABELS);
/** The pipeline secret with that name. */
export const findSecret = finder(SECRETS);
/** The AVAILABLE compute environment with that name or id (what a launch may use). */
export const findAvailableComputeEnv = finder(AVAILABLE_COMPUTE_ENVS);

/**
 * The workspace's primary compute environment among the AVAILABLE ones (`GET
 * /compute-envs?status=AVAILABLE`), as tw picks it; NameNotFoundError naming the available ones
 * when none is primary (or undefined with `optional`).
 */
export async function primaryComputeEnv(
  client: SeqeraClient,
  options: FindOptions & { optional: true },
): Promise<ComputeEnvSummary | undefined>;
export async function primaryComputeEnv(
  client: SeqeraClient,
  options?: FindOptions & { optional?: false },
): Promise<ComputeEnvSummary & { id: string }>;
export async function primaryComputeEnv(
  client: SeqeraClient,
  options: FindOptions = {},
): Promise<ComputeEnvSummary | undefined> {
  const { signal } = options;
  const workspaceId = await workspaceIdOf(client, options.workspaceId, signal);
  const available =
    (
      await client.GET("/compute-envs", {
        params: { query: { workspaceId, status: "AVAILABLE" } },
        signal,
      })
    ).computeEnvs ?? [];
  const primary = available.find((c) => c.primary && c.id);
  if (primary || options.optional) return primary;
  const names = available.map((c) => c.name ?? "").filter(Boolean);
  throw new NameNotFoundError(
    "compute environment",
    "(primary)",
    workspaceId,
    names,
    `Workspace ${workspaceId ?? "(personal)"} has no primary AVAILABLE compute environment; ` +
      `name one with \`computeEnv\`${names.length ? ` (available: ${names.map((n) => JSON.stringify(n)).join(", ")})` : ""}`,
  );
}

/**
 * The workspace "organization/workspace" (or a workspace id) the user belongs to, with its
 * organization's id and name (`GET /user-info`, `GET /user/{userId}/workspaces`, kept per client).
 */
export async function findWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options: { signal?: AbortSignal; optional: true },
): Promise<WorkspaceInfo | undefined>;
export async function findWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options?: { signal?: AbortSignal; optional?: false },
): Promise<WorkspaceInfo>;
export async function findWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options: { signal?: AbortSignal; optional?: boolean } = {},
): Promise<WorkspaceInfo | undefined> {
  const { signal } = options;
  const text = String(ref).trim();
  const byId = /^[1-9]\d*$/.test(text);
  const found = byId
    ? (await listWorkspaces(client, { signal })).find((w) => String(w.workspaceId) === text)
    : await lookupOptional(client, WORKSPACES, text, undefined, signal);
  if (!found) {
    if (options.optional) return undefined;
    // The lookup's own error names the near workspaces.
    if (!byId) await lookup(client, WORKSPACES, text, undefined, signal);
    throw new NameNotFoundError("workspace", text, undefined, []);
  }
  return {
    orgId: found.orgId!,
    orgName: found.orgName!,
    workspaceId: found.workspaceId!,
    workspaceName: found.workspaceName!,
  };
}

/**
 * Looks a name up and calls `use` with what was found. When `use` fails with 403 or 404 and the
 * resource came from a kept answer, the kept answer is dropped and the name looked up again: the
 * resource may have been deleted and re-created under a new id. A name that then points to the
 * same id rethrows the original error; a name that is gone says so (NameNotFoundError).
 */
export async function withFresh<T, R>(
  client: SeqeraClient,
  kind: Kind<T>,
  name: string,
  workspaceId: number | undefined,
  signal: AbortSignal | undefined,
  use: (item: T) => Promise<R>,
): Promise<R> {
  const item = await lookup(client, kind, name, workspaceId, signal);
  try {
    return await use(item);
  } catch (error) {
    if (!(error instanceof ForbiddenError || error instanceof NotFoundError)) throw error;
    forget(client, kind as Kind<unknown>, workspaceId, name);
    const again = await lookupOptional(client, kind, name, workspaceId, signal);
    if (again === undefined) {
      throw new NameNotFoundError(
        kind.kind,
        name,
        workspaceId,
        [],
        `The ${kind.kind} ${JSON.stringify(name)} (id ${kind.id(item)}) answered ${error.status} and ` +
          `no longer exists${workspaceId === undefined ? "" : ` in workspace ${workspaceId}`}: it was deleted`,
      );
    }
    if (kind.id(again) === kind.id(item)) throw error;
    return use(again);
  }
}

export { PIPELINES, AVAILABLE_COMPUTE_ENVS, listWorkspaces, resolveWorkspaceId };
export { nearNames } from "../core/near-names.js";
