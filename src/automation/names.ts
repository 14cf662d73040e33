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
import { MAX_PAGE_SIZE } from "../openapi/operation-info.js";
import { collect, keptList, lookup, lookupOptional, type Lookup } from "../client/lookup.js";
import { familyLookup } from "../client/family-lookup.js";
import { resolveWorkspace, WORKSPACES, type WorkspaceInfo } from "../client/workspaces.js";
import type { WorkspaceRef } from "../core/workspace-ref.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { SETTINGS, toldAs } from "../errors/settings.js";
import { listShape } from "../model/derive.js";
import { FAMILIES, type FamilyName } from "../model/families.js";
import type { Family } from "../model/family.js";
import { identified, type Identified } from "../model/identified.js";
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
} from "../schema/types.js";

export type { WorkspaceRef };

/**
 * A finder's options. The workspace is the client's: `find.pipeline(client.withWorkspace("acme/dev"), "rnaseq")`.
 */
export interface FindOptions {
  /** Resolve with undefined when nothing has that name, instead of rejecting with NameNotFoundError. */
  optional?: boolean;
  signal?: AbortSignal;
}

const PIPELINES = familyLookup<Pipeline>(FAMILIES.pipelines);
const COMPUTE_ENVS = familyLookup<ComputeEnvSummary>(FAMILIES["compute-envs"]);
/** The compute environments a run can use (`status=AVAILABLE`), by name or id, as tw finds them. */
const AVAILABLE_COMPUTE_ENVS = familyLookup<ComputeEnvSummary>(FAMILIES["compute-envs"], {
  query: { status: "AVAILABLE" },
  // Which is AVAILABLE, and which is primary.
  changedBy: [
    "POST /compute-envs/{computeEnvId}/disable",
    "POST /compute-envs/{computeEnvId}/enable",
    "POST /compute-envs/{computeEnvId}/primary",
  ],
  names: (c) => [c.name ?? "", c.id ?? ""],
});
export const CREDENTIALS = familyLookup<Credentials>(FAMILIES.credentials);
const DATASETS = familyLookup<Dataset>(FAMILIES.datasets);
const DATA_LINKS = familyLookup<DataLink>(FAMILIES["data-links"]);
const STUDIOS = familyLookup<Studio>(FAMILIES.studios);
const ACTIONS = familyLookup<object>(FAMILIES.actions);
/**
 * Labels as tw's LabelsFinder searches them: "name" a plain label (`search=name&type=simple`),
 * "name=value" a resource label (`search=name&type=resource`), so that neither is taken for the
 * other.
 */
export const LABELS = familyLookup<Label>(FAMILIES.labels, {
  searchQuery: (text) => {
    const cut = text.indexOf("=");
    return cut < 0
      ? { search: text, type: "simple" }
      : { search: text.slice(0, cut), type: "resource" };
  },
  names: (l) => [l.value == null ? (l.name ?? "") : `${l.name}=${l.value}`],
});
const SECRETS = familyLookup<PipelineSecret>(FAMILIES.secrets);

/** An organization the user belongs to, as `GET /orgs` lists it; its id as text. */
export type FoundOrganization = Omit<Organization, "orgId"> & { orgId: string; name: string };

const ORGANIZATIONS = familyLookup<FoundOrganization>(FAMILIES.organizations, {
  from: (o: Organization) =>
    o.orgId == null || o.name == null ? undefined : { ...o, orgId: String(o.orgId), name: o.name },
});

/** A team, with the id and name of its organization (every team operation takes the `orgId`); ids as text. */
export type FoundTeam = Omit<Team, "teamId"> & {
  teamId: string;
  name: string;
  orgId: string;
  orgName: string;
};

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
  id: (t) => t.teamId,
};

async function teamsOf(
  client: SeqeraClient,
  ref: string,
  search: boolean,
  signal: AbortSignal | undefined,
): Promise<FoundTeam[]> {
  const { orgId, orgName, name } = await organizationOf(client, ref, "team", "bioinfo", signal);
  const teams = await collect(
    client.paginate("/orgs/{orgId}/teams", {
      params: { path: { orgId: Number(orgId) }, query: search ? { search: name } : {} },
      ...(!search && { limit: MAX_PAGE_SIZE }),
      signal,
    }),
  );
  return teams.flatMap((t) =>
    t.teamId == null || t.name == null
      ? []
      : [{ ...t, teamId: String(t.teamId), name: t.name, orgId, orgName }],
  );
}

/**
 * The organization of "organization/name" (a team, a member) by its name, and the name in it;
 * ConfigurationError when the organization is not said.
 */
export async function organizationOf(
  client: SeqeraClient,
  ref: string,
  noun: string,
  example: string,
  signal: AbortSignal | undefined,
): Promise<{ orgId: string; orgName: string; name: string }> {
  const slash = ref.indexOf("/");
  if (slash <= 0) {
    throw new ConfigurationError(
      `${noun[0]!.toUpperCase()}${noun.slice(1)} ${JSON.stringify(ref)}: name a ${noun} as "organization/${noun}", e.g. "acme/${example}"`,
    );
  }
  const orgName = ref.slice(0, slash);
  const { orgId } = await lookup(client, ORGANIZATIONS, orgName, signal);
  return { orgId, orgName, name: ref.slice(slash + 1) };
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

/** The lookup's finder: what it finds as it is. */
function finder<T>(kind: Lookup<T>): Finder<T> {
  return (async (client: SeqeraClient, name: string, options: FindOptions = {}) =>
    options.optional
      ? await lookupOptional(client, kind, name, options.signal)
      : await lookup(client, kind, name, options.signal)) as Finder<T>;
}

/** The ids a family's finder checks present: its id and name fields. */
type FamilyIds<F extends Family, T> = Extract<F["id"] | F["name"], keyof T>;

/**
 * A family's finder: what it finds has its id and name present, checked as listed by the
 * family's list operation (an UnexpectedAnswerError naming it otherwise).
 */
function familyFinder<T extends object, const F extends Family>(
  family: F,
  kind: Lookup<T>,
): Finder<Identified<T, FamilyIds<F, T>>> {
  const find = finder(kind);
  const ids = [family.id, family.name] as FamilyIds<F, T>[];
  const at = `${listShape(family).items}[]`;
  return (async (client: SeqeraClient, name: string, options: FindOptions = {}) => {
    const found = await find(client, name, options);
    return found === undefined ? undefined : identified(found, ids, family.operations.list, at);
  }) as Finder<Identified<T, FamilyIds<F, T>>>;
}

/**
 * The pipeline with that name in the workspace's Launchpad, or shared with it from the
 * organization (its `workspaceId` is then the one it lives in).
 */
const findPipeline = familyFinder(FAMILIES.pipelines, PIPELINES);
/** The compute environment with that name (any status). */
const findComputeEnv = familyFinder(FAMILIES["compute-envs"], COMPUTE_ENVS);
/** The credentials with that name. */
const findCredentials = familyFinder(FAMILIES.credentials, CREDENTIALS);
/** The dataset with that name. */
const findDataset = familyFinder(FAMILIES.datasets, DATASETS);
/** The label with that name, or "name=value" for a resource label. */
const findLabel = familyFinder(FAMILIES.labels, LABELS);
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
const findDataLinkOnly = familyFinder(FAMILIES["data-links"], DATA_LINKS);
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
const findStudio = familyFinder(FAMILIES.studios, STUDIOS);
/** The pipeline secret with that name. */
const findSecret = familyFinder(FAMILIES.secrets, SECRETS);
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
  // Kept as the names are: a kept list without a primary is asked again once.
  let available = await keptList(client, AVAILABLE_COMPUTE_ENVS, signal);
  let primary = available.find((c) => c.primary && c.id);
  if (!primary) {
    available = await keptList(client, AVAILABLE_COMPUTE_ENVS, signal, true);
    primary = available.find((c) => c.primary && c.id);
  }
  if (primary || options.optional) return primary;
  const names = available.map((c) => c.name ?? "").filter(Boolean);
  const workspaceId = await client.resolveWorkspaceId({ signal });
  const none = `Workspace ${workspaceId ?? "(personal)"} has no primary AVAILABLE compute environment`;
  const quoted = names.map((n) => JSON.stringify(n)).join(", ");
  const error = new NameNotFoundError("compute environment", "(primary)", workspaceId, names, none);
  throw toldAs(error, (front) =>
    front === "library"
      ? `${none}; name one with ${SETTINGS.computeEnv.library}${quoted ? ` (available: ${quoted})` : ""}`
      : `${none}: choose one with ${SETTINGS.computeEnv[front]}${quoted ? `: ${quoted}` : ""}.`,
  );
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
  workspace: typeof resolveWorkspace;
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
  workspace: resolveWorkspace,
  organization: findOrganization,
  team: findTeam,
};

/** Each family's lookup by its key, for the helpers given kinds as data (plan, export). */
export const FAMILY_LOOKUPS: Partial<Record<FamilyName, Lookup<object>>> = {
  organizations: ORGANIZATIONS,
  teams: TEAMS,
  workspaces: WORKSPACES,
  pipelines: PIPELINES,
  "compute-envs": COMPUTE_ENVS,
  credentials: CREDENTIALS,
  datasets: DATASETS,
  labels: LABELS,
  secrets: SECRETS,
  "data-links": DATA_LINKS,
  studios: STUDIOS,
  actions: ACTIONS,
};

export { PIPELINES, AVAILABLE_COMPUTE_ENVS, TEAMS };
export { nearNames };
