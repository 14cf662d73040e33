/**
 * Names instead of ids: "org/workspace" references, organizations, "org/team" teams, and
 * pipelines, compute environments, credentials, datasets, labels, secrets, data links and
 * studios by name within a workspace. Pipelines are searched
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
import { ConfigurationError } from "../errors/configuration-error.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { identified, type Identified } from "./identified.js";
import { nearNames } from "../core/near-names.js";
import { contentUnder, type DataLinkContent } from "./data-links.js";
import type {
  ComputeEnvSummary,
  Credentials,
  DataLink,
  Dataset,
  Studio,
  Label,
  Organization,
  Pipeline,
  PipelineSecret,
  Team,
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

/** An organization the user belongs to, as `GET /orgs` lists it. */
export type FoundOrganization = Organization & { orgId: number; name: string };

const ORGANIZATIONS: Lookup<FoundOrganization> = {
  kind: "organization",
  global: true,
  list: async (client, signal) =>
    ((await client.GET("/orgs", { signal })).organizations ?? []).filter(
      (o): o is FoundOrganization => o.orgId != null && o.name != null,
    ),
  names: (o) => [o.name],
  id: (o) => String(o.orgId),
};

/** A team, with the id and name of its organization (every team operation takes the `orgId`). */
export type FoundTeam = Team & { teamId: number; name: string; orgId: number; orgName: string };

/**
 * Teams by "organization/team": the organization by name, then its teams as the service
 * searches them by name (`search=<team>`); after a miss, one page of them for near names.
 */
const TEAMS: Lookup<FoundTeam> = {
  kind: "team",
  global: true,
  searched: true,
  list: (client, signal, ref) => teamsOf(client, ref, true, signal),
  suggest: (client, signal, ref) => teamsOf(client, ref, false, signal),
  names: (t) => [`${t.orgName}/${t.name}`],
  id: (t) => String(t.teamId),
};

async function teamsOf(
  client: SeqeraClient,
  ref: string,
  search: boolean,
  signal: AbortSignal | undefined,
): Promise<FoundTeam[]> {
  const slash = ref.indexOf("/");
  if (slash <= 0) {
    throw new ConfigurationError(
      `Team ${JSON.stringify(ref)}: name a team as "organization/team", e.g. "acme/bioinfo"`,
    );
  }
  const orgName = ref.slice(0, slash);
  const { orgId } = await lookup(client, ORGANIZATIONS, orgName, signal);
  const teams = await collect(
    client.paginate("/orgs/{orgId}/teams", {
      params: { path: { orgId }, query: search ? { search: ref.slice(slash + 1) } : {} },
      ...(!search && { limit: 100 }),
      signal,
    }),
  );
  return teams.flatMap((t) =>
    t.teamId == null || t.name == null
      ? []
      : [{ ...t, teamId: t.teamId, name: t.name, orgId, orgName }],
  );
}

/**
 * A find function: the one resource of a kind with that name, or (optional) undefined; its ids
 * checked present (see `finder`), so that they go into the next call without `!`.
 */
export interface Finder<T> {
  (
    client: SeqeraClient,
    name: string,
    options: FindOptions & { optional: true },
  ): Promise<T | undefined>;
  (client: SeqeraClient, name: string, options?: FindOptions & { optional?: false }): Promise<T>;
  (client: SeqeraClient, name: string, options?: FindOptions): Promise<T | undefined>;
}

/** The kind's finder; what it finds has its fields `ids` present, as listed by `operation` (`at`). */
function finder<T, K extends keyof T = never>(
  kind: Lookup<T>,
  ids: readonly K[] = [],
  operation = "",
  at = "",
): Finder<Identified<T, K>> {
  return (async (client: SeqeraClient, name: string, options: FindOptions = {}) => {
    const found = options.optional
      ? await lookupOptional(client, kind, name, options.signal)
      : await lookup(client, kind, name, options.signal);
    return found === undefined ? undefined : identified(found, ids, operation, at);
  }) as Finder<Identified<T, K>>;
}

/**
 * The pipeline with that name in the workspace's Launchpad, or shared with it from the
 * organization (its `workspaceId` is then the one it lives in).
 */
const findPipeline = finder(PIPELINES, ["pipelineId", "name"], "GET /pipelines", "pipelines[]");
/** The compute environment with that name (any status). */
const findComputeEnv = finder(COMPUTE_ENVS, ["id", "name"], "GET /compute-envs", "computeEnvs[]");
/** The credentials with that name. */
const findCredentials = finder(CREDENTIALS, ["id"], "GET /credentials", "credentials[]");
/** The dataset with that name. */
const findDataset = finder(DATASETS, ["id", "name"], "GET /datasets", "datasets[]");
/** The label with that name, or "name=value" for a resource label. */
const findLabel = finder(LABELS, ["id", "name"], "GET /labels", "labels[]");
/**
 * The data link (bucket) with that name, with its credentials and `status`; with `under` (a
 * folder, "" for the whole bucket), also the objects under it at any depth and their bytes.
 */
export interface DataLinkFinder {
  (
    client: SeqeraClient,
    name: string,
    options: FindOptions & { under: string; optional: true },
  ): Promise<(FoundDataLink & DataLinkContent) | undefined>;
  (
    client: SeqeraClient,
    name: string,
    options: FindOptions & { under: string; optional?: false },
  ): Promise<FoundDataLink & DataLinkContent>;
  (
    client: SeqeraClient,
    name: string,
    options: FindOptions & { optional: true },
  ): Promise<FoundDataLink | undefined>;
  (
    client: SeqeraClient,
    name: string,
    options?: FindOptions & { optional?: false },
  ): Promise<FoundDataLink>;
  (
    client: SeqeraClient,
    name: string,
    options?: FindOptions & { under?: string },
  ): Promise<(FoundDataLink & Partial<DataLinkContent>) | undefined>;
}

/** A data link with its ids, as the finder gives it. */
type FoundDataLink = Identified<DataLink, "id" | "name">;
const findDataLinkOnly = finder(DATA_LINKS, ["id", "name"], "GET /data-links", "dataLinks[]");
const findDataLink = (async (
  client: SeqeraClient,
  name: string,
  options: FindOptions & { under?: string } = {},
) => {
  const link = await findDataLinkOnly(client, name, options);
  if (link === undefined || options.under === undefined) return link;
  // An INVALID link's objects cannot be read (the service answers a browse 500): none listed.
  if (link.status === "INVALID") return { ...link, objects: [], bytes: 0 };
  const content = await contentUnder(client, link.id, options.under, options.signal);
  return { ...link, ...content };
}) as DataLinkFinder;
/** The Data Studio with that name, with its `statusInfo` (its session id is `sessionId`). */
const findStudio = finder(STUDIOS, ["sessionId", "name"], "GET /studios", "studios[]");
/** The pipeline secret with that name. */
const findSecret = finder(SECRETS, ["id"], "GET /pipeline-secrets", "pipelineSecrets[]");
/** The organization with that name, among the user's. */
const findOrganization: Finder<FoundOrganization> = finder(ORGANIZATIONS);
/**
 * The team "organization/team", with its organization's `orgId` and `orgName`; the
 * organization must exist (a NameNotFoundError for it, with the optional form too).
 */
const findTeam: Finder<FoundTeam> = finder(TEAMS);

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
  // Kept per client, and a NameNotFoundError naming the near ones when there is none.
  const org = await lookup(client, ORGANIZATIONS, organization, signal);
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
 * `find.workspace(client, "acme/dev")`, `find.team(client, "acme/bioinfo")`,
 * `find.primaryComputeEnv(client)`. The workspace is the client's; `{ optional: true }` resolves
 * with undefined instead of rejecting with NameNotFoundError.
 */
export const find: {
  pipeline: Finder<Identified<Pipeline, "pipelineId" | "name">>;
  computeEnv: Finder<Identified<ComputeEnvSummary, "id" | "name">>;
  primaryComputeEnv: typeof primaryComputeEnv;
  credentials: Finder<Identified<Credentials, "id">>;
  dataset: Finder<Identified<Dataset, "id" | "name">>;
  label: Finder<Identified<Label, "id" | "name">>;
  dataLink: DataLinkFinder;
  studio: Finder<Identified<Studio, "sessionId" | "name">>;
  secret: Finder<Identified<PipelineSecret, "id">>;
  workspace: typeof findWorkspace;
  organization: Finder<FoundOrganization>;
  team: Finder<FoundTeam>;
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
  organization: findOrganization,
  team: findTeam,
};

export { PIPELINES, AVAILABLE_COMPUTE_ENVS, TEAMS };
export { nearNames };
