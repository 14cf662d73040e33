/**
 * Names instead of ids: "org/workspace" references, and pipelines, compute environments,
 * credentials, datasets, labels and secrets by name within a workspace. Lists are fetched once
 * per client and kept (a name not found in a kept list fetches it again once, so resources
 * created since are found); a missing or ambiguous name is a typed error naming the near ones.
 */
import leven from "leven";
import type { SeqeraClient } from "../client.js";
import { AmbiguousNameError } from "../errors/ambiguous-name-error.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import type {
  ComputeEnvSummary,
  Credentials,
  Dataset,
  Label,
  Pipeline,
  PipelineSecret,
  WorkspaceMembership,
} from "./schema.js";

/** A workspace: its numeric id, or "org/workspace" (the organization's and workspace's names). */
export type WorkspaceRef = number | string;

export interface NameOptions {
  /** The workspace to look in; default the client's (`workspaceId`, TOWER_WORKSPACE_ID), else the personal one. */
  workspaceId?: WorkspaceRef;
  signal?: AbortSignal;
}

interface NameCache {
  workspaces?: Promise<WorkspaceMembership[]>;
  /** Keyed by kind and workspace. */
  lists: Map<string, Promise<unknown[]>>;
}

const caches = new WeakMap<SeqeraClient, NameCache>();

function cacheOf(client: SeqeraClient): NameCache {
  let cache = caches.get(client);
  if (!cache) caches.set(client, (cache = { lists: new Map() }));
  return cache;
}

/** Keeps a load's promise for the next callers; a failed load is forgotten, so the next one retries. */
function kept<T>(load: () => Promise<T>, keep: (p: Promise<T> | undefined) => void): Promise<T> {
  const promise = load();
  keep(promise);
  promise.catch(() => keep(undefined));
  return promise;
}

/**
 * The workspaces of the user's organizations (`GET /user-info`, then
 * `GET /user/{userId}/workspaces`), without the organization-only entries. Kept per client.
 */
export function listWorkspaces(
  client: SeqeraClient,
  options: { signal?: AbortSignal } = {},
): Promise<WorkspaceMembership[]> {
  const cache = cacheOf(client);
  return cache.workspaces ?? loadWorkspaces(client, cache, options.signal);
}

function loadWorkspaces(client: SeqeraClient, cache: NameCache, signal?: AbortSignal) {
  return kept(
    async () => {
      const { user } = await client.GET("/user-info", { signal });
      const { orgsAndWorkspaces } = await client.GET("/user/{userId}/workspaces", {
        params: { path: { userId: user!.id! } },
        signal,
      });
      return (orgsAndWorkspaces ?? []).filter((w) => w.workspaceId != null && w.workspaceName);
    },
    (p) => (cache.workspaces = p),
  );
}

/** The numeric id of the workspace "org/workspace" (ids as strings pass through). */
export async function resolveWorkspaceId(
  client: SeqeraClient,
  ref: string,
  options: { signal?: AbortSignal } = {},
): Promise<number> {
  const text = ref.trim();
  if (/^[1-9]\d*$/.test(text)) return Number(text);
  if (!/^[^/\s]+\/[^/\s]+$/.test(text)) {
    throw new TypeError(
      `A workspace is an id or "organization/workspace", got ${JSON.stringify(ref)}`,
    );
  }
  const match = await lookup(client, "workspace", text, undefined, WORKSPACES, options.signal);
  return match.workspaceId!;
}

/** The workspace id a helper sends: the option's, else the client's, else undefined (personal). */
export async function workspaceIdOf(
  client: SeqeraClient,
  ref: WorkspaceRef | undefined,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const value = ref ?? client.config.workspaceId;
  if (value === undefined) return undefined;
  return typeof value === "number" ? value : resolveWorkspaceId(client, value, { signal });
}

/** How to list one kind of resource and read its names and id. */
interface Kind<T> {
  kind: string;
  list(client: SeqeraClient, workspaceId: number | undefined, signal?: AbortSignal): Promise<T[]>;
  /** The names a lookup matches: a label "env" with value "prod" answers "env" and "env=prod". */
  names(item: T): string[];
  id(item: T): string;
}

const WORKSPACES: Kind<WorkspaceMembership> = {
  kind: "workspace",
  list: (client, _workspaceId, signal) => listWorkspaces(client, { signal }),
  names: (w) => [`${w.orgName}/${w.workspaceName}`],
  id: (w) => String(w.workspaceId),
};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const PIPELINES: Kind<Pipeline> = {
  kind: "pipeline",
  list: (client, workspaceId, signal) =>
    collect(client.paginate("/pipelines", { params: { query: { workspaceId } }, signal })),
  names: (p) => [p.name ?? ""],
  id: (p) => String(p.pipelineId),
};

const COMPUTE_ENVS: Kind<ComputeEnvSummary> = {
  kind: "compute environment",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/compute-envs", { params: { query: { workspaceId } }, signal }))
      .computeEnvs ?? [],
  names: (c) => [c.name ?? ""],
  id: (c) => c.id ?? "",
};

const CREDENTIALS: Kind<Credentials> = {
  kind: "credentials",
  list: async (client, workspaceId, signal) =>
    (await client.GET("/credentials", { params: { query: { workspaceId } }, signal }))
      .credentials ?? [],
  names: (c) => [c.name],
  id: (c) => c.id ?? "",
};

const DATASETS: Kind<Dataset> = {
  kind: "dataset",
  list: (client, workspaceId, signal) =>
    collect(client.paginate("/datasets", { params: { query: { workspaceId } }, signal })),
  names: (d) => [d.name ?? ""],
  id: (d) => d.id ?? "",
};

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
  names: (s) => [s.name],
  id: (s) => String(s.id),
};

/** A `find` function for one kind: the one resource with that name in the workspace. */
function finder<T>(kind: Kind<T>) {
  return async (client: SeqeraClient, name: string, options: NameOptions = {}): Promise<T> => {
    const workspaceId = await workspaceIdOf(client, options.workspaceId, options.signal);
    return lookup(client, kind.kind, name, workspaceId, kind, options.signal);
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

async function lookup<T>(
  client: SeqeraClient,
  kindName: string,
  name: string,
  workspaceId: number | undefined,
  kind: Kind<T>,
  signal?: AbortSignal,
): Promise<T> {
  const cache = cacheOf(client);
  const key = `${kind.kind}\n${workspaceId ?? ""}`;
  const load = () =>
    kept(
      () => kind.list(client, workspaceId, signal),
      (p) => (p ? cache.lists.set(key, p) : cache.lists.delete(key)),
    );
  const keptList = cache.lists.get(key) as Promise<T[]> | undefined;
  let items = await (keptList ?? load());
  let matches = items.filter((item) => kind.names(item).includes(name));
  // A kept list may predate the resource: look once more before saying it does not exist.
  if (matches.length === 0 && keptList) {
    items = await load();
    matches = items.filter((item) => kind.names(item).includes(name));
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new NameNotFoundError(
      kindName,
      name,
      workspaceId,
      nearNames(name, items.flatMap(kind.names)),
    );
  }
  throw new AmbiguousNameError(
    kindName,
    name,
    workspaceId,
    matches.map((m) => ({ id: kind.id(m), name: kind.names(m).at(-1)! })),
  );
}

/** Names within a few edits of `name`, or one containing the other, closest first; at most 5. */
export function nearNames(name: string, names: readonly string[]): string[] {
  const target = name.toLowerCase();
  const maxDistance = Math.max(2, Math.floor(target.length / 3));
  const near: { name: string; distance: number }[] = [];
  for (const candidate of new Set(names)) {
    if (candidate === "" || candidate === name) continue;
    const lower = candidate.toLowerCase();
    const distance = leven(target, lower);
    const contains =
      Math.min(lower.length, target.length) >= 3 &&
      (lower.includes(target) || target.includes(lower));
    if (distance <= maxDistance || contains) near.push({ name: candidate, distance });
  }
  near.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return near.slice(0, 5).map((n) => n.name);
}
