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
  keptList,
  lookup,
  lookupOptional,
  type Lookup,
  type WorkspaceInfo,
} from "../client/names.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { nearNames } from "../core/near-names.js";
import type {
  ComputeEnvSummary,
  Credentials,
  DataLink,
  Dataset,
  Studio,
  Label,
  Pipeline,
  PipelineSecret,
} from "./schema.js";

/** A workspace: its numeric id, or "org/workspace" (the organization's and workspace's names). */
export type WorkspaceRef = number | string;

/**
 * A finder's options. The workspace is the client's: `find.pipeline(client.withWorkspace("acme/dev"), "rnaseq")`.
 */
export interface FindOptions {
  /** Resolve with undefined when nothing has that name, instead of rejecting with NameNotFoundError. */
  optional?: boolean;
  signal?: AbortSignal;
}

/**
 * A kind the service searches by name (`search=<name>`, with `visibility=all` where resources
 * are shared from the organization, as tw asks, so that those are found): every page of the
 * answer; after a miss, one page of the whole list for near names.
 */
function searchedKind<T extends { name?: string | null }>(
  kind: string,
  path: "/pipelines" | "/datasets" | "/data-links" | "/studios",
  id: (item: T) => string,
): Lookup<T> {
  const shared = path === "/pipelines" || path === "/datasets";
  const list = (
    client: SeqeraClient,
    query: { search?: string },
    page: { pageSize: number; limit?: number },
    signal: AbortSignal | undefined,
  ) =>
    collect(
      client.paginate(path, {
        params: { query: shared ? { ...query, visibility: "all" } : query },
        ...page,
        signal,
      }),
    ) as Promise<T[]>;
  return {
    kind,
    searched: true,
    list: (client, signal, name) => list(client, { search: name }, { pageSize: 50 }, signal),
    suggest: (client, signal) => list(client, {}, { pageSize: 100, limit: 100 }, signal),
    names: (item) => [item.name ?? ""],
    id,
  };
}

const PIPELINES = searchedKind<Pipeline>("pipeline", "/pipelines", (p) => String(p.pipelineId));

const COMPUTE_ENVS: Lookup<ComputeEnvSummary> = {
  kind: "compute environment",
  list: async (client, signal) => (await client.GET("/compute-envs", { signal })).computeEnvs ?? [],
  names: (c) => [c.name ?? ""],
  id: (c) => c.id ?? "",
};

/** The compute environments a run can use (`status=AVAILABLE`), by name or id, as tw finds them. */
const AVAILABLE_COMPUTE_ENVS: Lookup<ComputeEnvSummary> = {
  kind: "compute environment",
  list: async (client, signal) =>
    (await client.GET("/compute-envs", { params: { query: { status: "AVAILABLE" } }, signal }))
      .computeEnvs ?? [],
  names: (c) => [c.name ?? "", c.id ?? ""],
  id: (c) => c.id ?? "",
};

export const CREDENTIALS: Lookup<Credentials> = {
  kind: "credentials",
  list: async (client, signal) => (await client.GET("/credentials", { signal })).credentials ?? [],
  names: (c) => [c.name ?? ""],
  id: (c) => c.id ?? "",
};

const DATASETS = searchedKind<Dataset>("dataset", "/datasets", (d) => d.id ?? "");
const DATA_LINKS = searchedKind<DataLink>("data link", "/data-links", (l) => l.id ?? "");
const STUDIOS = searchedKind<Studio>("studio", "/studios", (s) => s.sessionId ?? "");

/** Labels searched by name (a resource label "name=value" by its name), as tw's LabelsFinder. */
const LABELS: Lookup<Label> = {
  kind: "label",
  searched: true,
  list: (client, signal, name) =>
    collect(
      client.paginate("/labels", { params: { query: { search: name.split("=")[0] } }, signal }),
    ),
  suggest: (client, signal) => collect(client.paginate("/labels", { limit: 100, signal })),
  names: (l) => (l.value == null ? [l.name ?? ""] : [l.name ?? "", `${l.name}=${l.value}`]),
  id: (l) => String(l.id),
};

const SECRETS: Lookup<PipelineSecret> = {
  kind: "secret",
  list: async (client, signal) =>
    (await client.GET("/pipeline-secrets", { signal })).pipelineSecrets ?? [],
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
  (client: SeqeraClient, name: string, options?: FindOptions): Promise<T | undefined>;
}

function finder<T>(kind: Lookup<T>): Finder<T> {
  return ((client: SeqeraClient, name: string, options: FindOptions = {}) =>
    options.optional
      ? lookupOptional(client, kind, name, options.signal)
      : lookup(client, kind, name, options.signal)) as Finder<T>;
}

/**
 * The pipeline with that name in the workspace's Launchpad, or shared with it from the
 * organization (its `workspaceId` is then the one it lives in).
 */
const findPipeline: Finder<Pipeline> = finder(PIPELINES);
/** The compute environment with that name (any status). */
const findComputeEnv: Finder<ComputeEnvSummary> = finder(COMPUTE_ENVS);
/** The credentials with that name. */
const findCredentials: Finder<Credentials> = finder(CREDENTIALS);
/** The dataset with that name. */
const findDataset: Finder<Dataset> = finder(DATASETS);
/** The label with that name, or "name=value" for a resource label. */
const findLabel: Finder<Label> = finder(LABELS);
/** The data link (bucket) with that name, with its credentials and `status`. */
const findDataLink: Finder<DataLink> = finder(DATA_LINKS);
/** The Data Studio with that name, with its `statusInfo` (its session id is `sessionId`). */
const findStudio: Finder<Studio> = finder(STUDIOS);
/** The pipeline secret with that name. */
const findSecret: Finder<PipelineSecret> = finder(SECRETS);

/**
 * The workspace's primary compute environment among the AVAILABLE ones (`GET
 * /compute-envs?status=AVAILABLE`), as tw picks it; NameNotFoundError naming the available ones
 * when none is primary (or undefined with `optional`).
 */
async function primaryComputeEnv(
  client: SeqeraClient,
  options: FindOptions & { optional: true },
): Promise<ComputeEnvSummary | undefined>;
async function primaryComputeEnv(
  client: SeqeraClient,
  options?: FindOptions & { optional?: false },
): Promise<ComputeEnvSummary & { id: string }>;
async function primaryComputeEnv(
  client: SeqeraClient,
  options?: FindOptions,
): Promise<ComputeEnvSummary | undefined>;
async function primaryComputeEnv(
  client: SeqeraClient,
  options: FindOptions = {},
): Promise<ComputeEnvSummary | undefined> {
  const { signal } = options;
  const available =
    (await client.GET("/compute-envs", { params: { query: { status: "AVAILABLE" } }, signal }))
      .computeEnvs ?? [];
  const primary = available.find((c) => c.primary && c.id);
  if (primary || options.optional) return primary;
  const names = available.map((c) => c.name ?? "").filter(Boolean);
  const workspaceId = await client.resolveWorkspaceId({ signal });
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
async function findWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options: { signal?: AbortSignal; optional: true },
): Promise<WorkspaceInfo | undefined>;
async function findWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options?: { signal?: AbortSignal; optional?: false },
): Promise<WorkspaceInfo>;
async function findWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options?: { signal?: AbortSignal; optional?: boolean },
): Promise<WorkspaceInfo | undefined>;
async function findWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options: { signal?: AbortSignal; optional?: boolean } = {},
): Promise<WorkspaceInfo | undefined> {
  const { signal } = options;
  const text = String(ref).trim();
  const byId = /^[1-9]\d*$/.test(text);
  const found = byId
    ? (await keptList(client, WORKSPACES, signal)).find((w) => w.workspaceId === text)
    : await lookupOptional(client, WORKSPACES, text, signal);
  if (!found) {
    if (options.optional) return undefined;
    // The lookup's own error names the near workspaces.
    if (!byId) await lookup(client, WORKSPACES, text, signal);
    throw new NameNotFoundError("workspace", text, undefined, []);
  }
  return { ...found };
}

/**
 * The workspaces of the user's organizations (`GET /user-info`, then
 * `GET /user/{userId}/workspaces`, kept per client), without the organization-only entries; or,
 * with `organization`, every workspace of that organization the user can see (`GET /orgs`, then
 * `GET /orgs/{orgId}/workspaces`), and NameNotFoundError naming the near organizations when the
 * user has none of that name.
 */
export async function listWorkspaces(
  client: SeqeraClient,
  options: { organization?: string; signal?: AbortSignal } = {},
): Promise<WorkspaceInfo[]> {
  const { organization, signal } = options;
  if (organization === undefined) {
    return (await keptList(client, WORKSPACES, signal)).map((w) => ({ ...w }));
  }
  const organizations = (await client.GET("/orgs", { signal })).organizations ?? [];
  const org = organizations.find((o) => o.name === organization);
  if (org?.orgId == null) {
    const names = organizations.map((o) => o.name ?? "");
    throw new NameNotFoundError(
      "organization",
      organization,
      undefined,
      nearNames(organization, names),
    );
  }
  const { workspaces } = await client.GET("/orgs/{orgId}/workspaces", {
    params: { path: { orgId: org.orgId } },
    signal,
  });
  return (workspaces ?? []).map((w) => ({
    orgId: String(org.orgId),
    orgName: organization,
    workspaceId: String(w.id),
    workspaceName: w.name ?? "",
  }));
}

/**
 * One resource by its name, a function per kind: `find.pipeline(client, "rnaseq")`,
 * `find.workspace(client, "acme/dev")`, `find.primaryComputeEnv(client)`. The workspace is the
 * client's; `{ optional: true }` resolves with undefined instead of rejecting with
 * NameNotFoundError.
 */
export const find: {
  pipeline: Finder<Pipeline>;
  computeEnv: Finder<ComputeEnvSummary>;
  primaryComputeEnv: typeof primaryComputeEnv;
  credentials: Finder<Credentials>;
  dataset: Finder<Dataset>;
  label: Finder<Label>;
  dataLink: Finder<DataLink>;
  studio: Finder<Studio>;
  secret: Finder<PipelineSecret>;
  workspace: typeof findWorkspace;
} = {
  pipeline: findPipeline,
  computeEnv: findComputeEnv,
  primaryComputeEnv,
  credentials: findCredentials,
  dataset: findDataset,
  label: findLabel,
  dataLink: findDataLink,
  studio: findStudio,
  secret: findSecret,
  workspace: findWorkspace,
};

export { PIPELINES, AVAILABLE_COMPUTE_ENVS };
export { nearNames };
