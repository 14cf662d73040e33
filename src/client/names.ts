/**
 * Names the client itself resolves, and the lookup every name helper shares: a kind's list (or,
 * for a kind the service searches, the answer to a search for the name) is fetched once per
 * client and kept; a name not found in a kept list fetches it again once, so resources created
 * since are found, and `forget` drops a kept list whose ids stopped answering. A missing or
 * ambiguous name is a typed error naming the near ones. The workspace "organization/workspace"
 * is the one kind the client needs.
 */
import type { SeqeraClient } from "./types.js";
import { AmbiguousNameError } from "../errors/ambiguous-name-error.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { nearNames } from "../core/near-names.js";
import type { Readable } from "openapi-typescript-helpers";
import type { components } from "../../generated/schema.js";

/** One organization-and-workspace pair the user belongs to (`GET /user/{userId}/workspaces`). */
export type WorkspaceMembership = Readable<components["schemas"]["OrgAndWorkspaceDto"]>;

/** How to list one kind of resource and read its names and id. */
export interface Kind<T> {
  kind: string;
  /**
   * The kind's resources, or (for a kind with `searched`) those the service finds for `name`,
   * which still must match exactly.
   */
  list(
    client: SeqeraClient,
    workspaceId: string | undefined,
    signal: AbortSignal | undefined,
    name: string,
  ): Promise<T[]>;
  /** The service searches by name: one call per name instead of the whole list. */
  searched?: boolean;
  /** For a searched kind: some of its resources (one page), to suggest near names after a miss. */
  suggest?(
    client: SeqeraClient,
    workspaceId: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<T[]>;
  /** The names a lookup matches: a label "env" with value "prod" answers "env" and "env=prod". */
  names(item: T): string[];
  id(item: T): string;
}

/** Per client and kind: the lists fetched so far (pending ones too), by workspace (and name). */
const caches = new WeakMap<SeqeraClient, Map<Kind<unknown>, Map<string, Promise<unknown[]>>>>();

function listsOf(client: SeqeraClient, kind: Kind<unknown>): Map<string, Promise<unknown[]>> {
  let kinds = caches.get(client);
  if (!kinds) caches.set(client, (kinds = new Map()));
  let lists = kinds.get(kind);
  if (!lists) kinds.set(kind, (lists = new Map()));
  return lists;
}

/**
 * The kept list of a kind in a workspace, fetched when there is none or when `fresh`. The
 * promise is kept at once, so concurrent lookups share one fetch; a failed fetch is forgotten.
 */
export function listOf<T>(
  client: SeqeraClient,
  kind: Kind<T>,
  workspaceId: string | undefined,
  signal: AbortSignal | undefined,
  fresh = false,
  name = "",
): { items: Promise<T[]>; wasKept: boolean } {
  const lists = listsOf(client, kind as Kind<unknown>);
  const key = keyOf(kind as Kind<unknown>, workspaceId, name);
  const keptList = lists.get(key) as Promise<T[]> | undefined;
  if (keptList && !fresh) return { items: keptList, wasKept: true };
  const items = kind.list(client, workspaceId, signal, name);
  lists.set(key, items);
  items.catch(() => {
    if (lists.get(key) === items) lists.delete(key);
  });
  return { items, wasKept: false };
}

function keyOf(kind: Kind<unknown>, workspaceId: string | undefined, name: string): string {
  return `${workspaceId ?? ""}${kind.searched ? `\n${name}` : ""}`;
}

/**
 * Drops the kept list holding `name` (ids from it answered 403 or 404: the resource was deleted,
 * perhaps re-created under a new id), so that the next lookup asks the service again.
 */
export function forget(
  client: SeqeraClient,
  kind: Kind<unknown>,
  workspaceId: string | undefined,
  name: string,
): void {
  listsOf(client, kind).delete(keyOf(kind, workspaceId, name));
}

/** The one resource named `name`, or undefined when there is none; AmbiguousNameError for several. */
export async function lookupOptional<T>(
  client: SeqeraClient,
  kind: Kind<T>,
  name: string,
  workspaceId: string | undefined,
  signal?: AbortSignal,
): Promise<T | undefined> {
  return (await search(client, kind, name, workspaceId, signal)).match;
}

/** The one resource named `name`; NameNotFoundError (with near names) or AmbiguousNameError. */
export async function lookup<T>(
  client: SeqeraClient,
  kind: Kind<T>,
  name: string,
  workspaceId: string | undefined,
  signal?: AbortSignal,
): Promise<T> {
  const { match, items } = await search(client, kind, name, workspaceId, signal);
  if (match !== undefined) return match;
  const near = kind.suggest ? await kind.suggest(client, workspaceId, signal) : items;
  const candidates = nearNames(name, near.flatMap(kind.names));
  throw new NameNotFoundError(kind.kind, name, workspaceNumber(workspaceId), candidates);
}

/** A workspace id as the errors' field has it: the schema's number (exact below 2^53). */
export function workspaceNumber(workspaceId: string | undefined): number | undefined {
  return workspaceId === undefined ? undefined : Number(workspaceId);
}

async function search<T>(
  client: SeqeraClient,
  kind: Kind<T>,
  name: string,
  workspaceId: string | undefined,
  signal: AbortSignal | undefined,
): Promise<{ match: T | undefined; items: T[] }> {
  const matching = (items: T[]) => items.filter((item) => kind.names(item).includes(name));
  const first = listOf(client, kind, workspaceId, signal, false, name);
  let items = await first.items;
  let matches = matching(items);
  // A kept list may predate the resource: look once more before saying it does not exist.
  if (matches.length === 0 && first.wasKept) {
    items = await listOf(client, kind, workspaceId, signal, true, name).items;
    matches = matching(items);
  }
  if (matches.length <= 1) return { match: matches[0], items };
  throw new AmbiguousNameError(
    kind.kind,
    name,
    workspaceNumber(workspaceId),
    matches.map((m) => ({ id: kind.id(m), name: kind.names(m).at(-1)! })),
  );
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

export const WORKSPACES: Kind<WorkspaceMembership> = {
  kind: "workspace",
  list: async (client, _workspaceId, signal) => {
    const { user } = await client.GET("/user-info", { signal });
    const { orgsAndWorkspaces } = await client.GET("/user/{userId}/workspaces", {
      params: { path: { userId: user!.id! } },
      signal,
    });
    return (orgsAndWorkspaces ?? []).filter((w) => w.workspaceId != null && w.workspaceName);
  },
  names: (w) => [`${w.orgName}/${w.workspaceName}`],
  id: (w) => String(w.workspaceId),
};

/**
 * The workspaces of the user's organizations (`GET /user-info`, then
 * `GET /user/{userId}/workspaces`), without the organization-only entries. Kept per client.
 */
export function listWorkspaces(
  client: SeqeraClient,
  options: { signal?: AbortSignal } = {},
): Promise<WorkspaceMembership[]> {
  return listOf(client, WORKSPACES, undefined, options.signal).items;
}

/**
 * The numeric id of the workspace "org/workspace" (ids as strings pass through). An id past
 * 2^53 loses digits as a number: the client itself sends workspaces by workspaceIdText.
 */
export async function resolveWorkspaceId(
  client: SeqeraClient,
  ref: string,
  options: { signal?: AbortSignal } = {},
): Promise<number> {
  return Number(await workspaceIdText(client, ref, options));
}

/** The id of the workspace "org/workspace" as digits; ids given as digits kept exactly. */
export async function workspaceIdText(
  client: SeqeraClient,
  ref: string,
  options: { signal?: AbortSignal } = {},
): Promise<string> {
  const text = ref.trim();
  if (/^[1-9]\d*$/.test(text)) return text;
  if (!/^[^/\s]+\/[^/\s]+$/.test(text)) {
    throw new ConfigurationError(
      `A workspace is an id or "organization/workspace", got ${JSON.stringify(ref)}`,
    );
  }
  const match = await lookup(client, WORKSPACES, text, undefined, options.signal);
  return String(match.workspaceId!);
}
