/**
 * Names the client itself resolves, and the lookup every name helper shares: a kind's list is
 * fetched once per client and kept (a name not found in a kept list fetches it again once, so
 * resources created since are found); a missing or ambiguous name is a typed error naming the
 * near ones. The workspace "organization/workspace" is the one kind the client needs.
 */
import type { SeqeraClient } from "./types.js";
import { AmbiguousNameError } from "../errors/ambiguous-name-error.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { nearNames } from "../core/near-names.js";
import type { Readable } from "openapi-typescript-helpers";
import type { components } from "../../generated/schema.js";

/** One organization-and-workspace pair the user belongs to (`GET /user/{userId}/workspaces`). */
type WorkspaceMembership = Readable<components["schemas"]["OrgAndWorkspaceDto"]>;

/** How to list one kind of resource and read its names and id. */
export interface Kind<T> {
  kind: string;
  list(client: SeqeraClient, workspaceId: string | undefined, signal?: AbortSignal): Promise<T[]>;
  /** The names a lookup matches: a label "env" with value "prod" answers "env" and "env=prod". */
  names(item: T): string[];
  id(item: T): string;
}

/** Per client: the lists fetched so far (pending ones too), by kind and workspace. */
const caches = new WeakMap<SeqeraClient, Map<string, Promise<unknown[]>>>();

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
): { items: Promise<T[]>; wasKept: boolean } {
  let lists = caches.get(client);
  if (!lists) caches.set(client, (lists = new Map()));
  const key = `${kind.kind}\n${workspaceId ?? ""}`;
  const keptList = lists.get(key) as Promise<T[]> | undefined;
  if (keptList && !fresh) return { items: keptList, wasKept: true };
  const items = kind.list(client, workspaceId, signal);
  lists.set(key, items);
  items.catch(() => {
    if (lists.get(key) === items) lists.delete(key);
  });
  return { items, wasKept: false };
}

export async function lookup<T>(
  client: SeqeraClient,
  kind: Kind<T>,
  name: string,
  workspaceId: string | undefined,
  signal?: AbortSignal,
): Promise<T> {
  const matching = (items: T[]) => items.filter((item) => kind.names(item).includes(name));
  const first = listOf(client, kind, workspaceId, signal);
  let items = await first.items;
  let matches = matching(items);
  // A kept list may predate the resource: look once more before saying it does not exist.
  if (matches.length === 0 && first.wasKept) {
    items = await listOf(client, kind, workspaceId, signal, true).items;
    matches = matching(items);
  }
  if (matches.length === 1) return matches[0]!;
  // The errors' field is the schema's number (exact below 2^53).
  const inWorkspace = workspaceId === undefined ? undefined : Number(workspaceId);
  if (matches.length === 0) {
    const candidates = nearNames(name, items.flatMap(kind.names));
    throw new NameNotFoundError(kind.kind, name, inWorkspace, candidates);
  }
  throw new AmbiguousNameError(
    kind.kind,
    name,
    inWorkspace,
    matches.map((m) => ({ id: kind.id(m), name: kind.names(m).at(-1)! })),
  );
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

const WORKSPACES: Kind<WorkspaceMembership> = {
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
