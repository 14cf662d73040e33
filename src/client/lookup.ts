/**
 * Names the client itself resolves, and the lookup every name helper shares: a kind's list (or,
 * for a kind the service searches, the answer to a search for the name) is fetched once per
 * client family (a client and those derived from it) and workspace, and kept; a name not found
 * in a kept list fetches it again once, so resources created since are found, and `withFresh`
 * drops a kept list whose ids stopped answering. A missing or ambiguous name is a typed error
 * naming the near ones.
 */
import type { SeqeraClient } from "./types.js";
import { AmbiguousNameError } from "../errors/ambiguous-name-error.js";
import { ForbiddenError } from "../errors/forbidden-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";
import { offAbort, onAbort } from "../core/abort.js";
import { nearNames } from "../core/near-names.js";

/** How to list one kind of resource and read its names and id. */
export interface Lookup<T> {
  kind: string;
  /**
   * The kind's resources in the client's workspace, or (for a kind with `searched`) those the
   * service finds for `name`, which still must match exactly.
   */
  list(client: SeqeraClient, signal: AbortSignal | undefined, name: string): Promise<T[]>;
  /** Listed without a workspace: the user's workspaces themselves. */
  global?: boolean;
  /** The service searches by name: one call per name instead of the whole list. */
  searched?: boolean;
  /**
   * For a searched kind: some of its resources (one page) where `name` was looked for, to
   * suggest near names after a miss.
   */
  suggest?(client: SeqeraClient, signal: AbortSignal | undefined, name: string): Promise<T[]>;
  /** The names a lookup matches: a label "env" with value "prod" answers "env" and "env=prod". */
  names(item: T): string[];
  id(item: T): string;
  /**
   * The operations ("POST /compute-envs") after whose success the kept lists are stale: a
   * resource created, renamed or deleted by this client family is found (or not) at once.
   */
  changedBy?: readonly string[];
}

/**
 * One fetch of a list, shared by every lookup that waits for it: it runs with its own signal,
 * aborted only when every waiter has gone (each waiter leaves on its own signal).
 */
interface SharedList {
  items: Promise<unknown[]>;
  controller: AbortController;
  waiters: number;
  settled: boolean;
}

/** By workspace (and name), oldest use first: at most MAX_KEPT_LISTS, the least used dropped. */
type Lists = Map<string, SharedList>;

/**
 * Lists kept per client family and kind: a searched kind keeps one per name looked up, so a
 * long-lived client looking up thousands of names (misses included) would keep them all.
 */
const MAX_KEPT_LISTS = 100;

/**
 * Per client family (a client and those derived from it share one) and kind: the lists fetched
 * so far (pending ones too), by workspace (and name).
 */
const caches = new WeakMap<object, Map<Lookup<unknown>, Lists>>();
const families = new WeakMap<SeqeraClient, object>();

/** A derived client shares what its parent has looked up. */
export function shareLookups(derived: SeqeraClient, parent: SeqeraClient): void {
  families.set(derived, families.get(parent) ?? parent);
}

function listsOf(client: SeqeraClient, kind: Lookup<unknown>): Lists {
  const family = families.get(client) ?? client;
  let kinds = caches.get(family);
  if (!kinds) caches.set(family, (kinds = new Map()));
  let lists = kinds.get(kind);
  if (!lists) kinds.set(kind, (lists = new Map()));
  return lists;
}

/** The workspace a kind is listed in: the client's, resolved once (none for a global kind). */
export async function workspaceOf(
  client: SeqeraClient,
  kind: Lookup<unknown>,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  return kind.global ? undefined : client.resolveWorkspaceId({ signal });
}

/** The kind's kept list in the client's workspace, fetched if there is none yet (or `fresh`). */
export async function keptList<T>(
  client: SeqeraClient,
  kind: Lookup<T>,
  signal: AbortSignal | undefined,
  fresh = false,
): Promise<T[]> {
  const workspaceId = await workspaceOf(client, kind as Lookup<unknown>, signal);
  return join(listOf(client, kind, workspaceId, fresh).shared, signal) as Promise<T[]>;
}

/**
 * The kept list of a kind in a workspace, fetched when there is none or when `fresh`. The
 * fetch is kept at once, so concurrent lookups share it (see join); a failed fetch is
 * forgotten. A fetch makes the kept lists of the same resources by other lookups (compute
 * environments of any status, and AVAILABLE ones) stale: they are dropped, so that a
 * resource re-created under a new id is not found under its old one by the other.
 */
export function listOf<T>(
  client: SeqeraClient,
  kind: Lookup<T>,
  workspaceId: string | undefined,
  fresh = false,
  name = "",
): { shared: SharedList; wasKept: boolean } {
  const lists = listsOf(client, kind as Lookup<unknown>);
  const key = keyOf(kind as Lookup<unknown>, workspaceId, name);
  const kept = lists.get(key);
  lists.delete(key);
  if (kept && !fresh) {
    lists.set(key, kept);
    return { shared: kept, wasKept: true };
  }
  forgetOtherViews(client, kind as Lookup<unknown>, workspaceId);
  const controller = new AbortController();
  const shared: SharedList = { items: Promise.resolve([]), controller, waiters: 0, settled: false };
  shared.items = kind.list(client, controller.signal, name).finally(() => {
    shared.settled = true;
  });
  shared.items.catch(() => {
    if (lists.get(key) === shared) lists.delete(key);
  });
  lists.set(key, shared);
  for (const oldest of lists.keys()) {
    if (lists.size <= MAX_KEPT_LISTS) break;
    lists.delete(oldest);
  }
  return { shared, wasKept: false };
}

/**
 * A shared fetch's answer for one lookup, which leaves on its own signal (its reason); the fetch
 * goes on for the others, and is aborted once the last has left.
 */
export async function join(
  shared: SharedList,
  signal: AbortSignal | undefined,
): Promise<unknown[]> {
  if (shared.settled) return shared.items;
  signal?.throwIfAborted();
  shared.waiters++;
  try {
    if (!signal) return await shared.items;
    return await new Promise<unknown[]>((resolve, reject) => {
      const leave = () => reject(signal.reason);
      onAbort(signal, leave);
      shared.items.then(resolve, reject).finally(() => offAbort(signal, leave));
    });
  } finally {
    shared.waiters--;
    if (shared.waiters === 0 && !shared.settled) shared.controller.abort();
  }
}

/** Drops the kept lists in `workspaceId` of the other lookups of the same kind of resource. */
function forgetOtherViews(
  client: SeqeraClient,
  kind: Lookup<unknown>,
  workspaceId: string | undefined,
): void {
  const kinds = caches.get(families.get(client) ?? client);
  for (const [other, lists] of kinds ?? []) {
    if (other === kind || other.kind !== kind.kind) continue;
    for (const key of [...lists.keys()]) {
      if (key.split("\n")[0] === (workspaceId ?? "")) lists.delete(key);
    }
  }
}

function keyOf(kind: Lookup<unknown>, workspaceId: string | undefined, name: string): string {
  return `${workspaceId ?? ""}${kind.searched ? `\n${name}` : ""}`;
}

/** The one resource named `name`, or undefined when there is none; AmbiguousNameError for several. */
export async function lookupOptional<T>(
  client: SeqeraClient,
  kind: Lookup<T>,
  name: string,
  signal?: AbortSignal,
): Promise<T | undefined> {
  return (await search(client, kind, name, signal)).match;
}

/** The one resource named `name`; NameNotFoundError (with near names) or AmbiguousNameError. */
export async function lookup<T>(
  client: SeqeraClient,
  kind: Lookup<T>,
  name: string,
  signal?: AbortSignal,
): Promise<T> {
  const { match, items, workspaceId } = await search(client, kind, name, signal);
  if (match !== undefined) return match;
  const near = kind.suggest ? await kind.suggest(client, signal, name) : items;
  const candidates = nearNames(name, near.flatMap(kind.names));
  throw new NameNotFoundError(kind.kind, name, workspaceId, candidates);
}

async function search<T>(
  client: SeqeraClient,
  kind: Lookup<T>,
  name: string,
  signal: AbortSignal | undefined,
): Promise<{ match: T | undefined; items: T[]; workspaceId: string | undefined }> {
  const workspaceId = await workspaceOf(client, kind as Lookup<unknown>, signal);
  const matching = (items: T[]) => items.filter((item) => kind.names(item).includes(name));
  const first = listOf(client, kind, workspaceId, false, name);
  let items = (await join(first.shared, signal)) as T[];
  let matches = matching(items);
  // A kept list may predate the resource: look once more before saying it does not exist.
  if (matches.length === 0 && first.wasKept) {
    items = (await join(listOf(client, kind, workspaceId, true, name).shared, signal)) as T[];
    matches = matching(items);
  }
  if (matches.length <= 1) return { match: matches[0], items, workspaceId };
  throw new AmbiguousNameError(
    kind.kind,
    name,
    workspaceId,
    matches.map((m) => ({ id: kind.id(m), name: kind.names(m).at(-1)! })),
  );
}

/** A 403 or 404: what a kept id or answer named may be gone. */
export const answeredGone = (error: unknown): error is ForbiddenError | NotFoundError =>
  error instanceof ForbiddenError || error instanceof NotFoundError;

/**
 * Looks a name up and calls `use` with what was found. When `use` fails with 403 or 404 (of
 * those, the ones `gone` accepts) and the resource came from a kept answer, the kept answer is
 * dropped and the name looked up again: the resource may have been deleted and re-created under
 * a new id. A name that then points to the same id rethrows the original error; a name that is
 * gone says so (NameNotFoundError).
 */
export async function withFresh<T, R>(
  client: SeqeraClient,
  kind: Lookup<T>,
  name: string,
  signal: AbortSignal | undefined,
  use: (item: T) => Promise<R>,
  gone: (error: ForbiddenError | NotFoundError) => boolean = () => true,
): Promise<R> {
  const item = await lookup(client, kind, name, signal);
  try {
    return await use(item);
  } catch (error) {
    if (!answeredGone(error) || !gone(error)) throw error;
    const workspaceId = await workspaceOf(client, kind as Lookup<unknown>, signal);
    listsOf(client, kind as Lookup<unknown>).delete(
      keyOf(kind as Lookup<unknown>, workspaceId, name),
    );
    const again = await lookupOptional(client, kind, name, signal);
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

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * After a call that succeeded: the kept lists in its workspace of every lookup that call makes
 * stale (`changedBy`) are dropped, so that a name deleted and created again by this client
 * family answers its new id.
 */
export function forgetChanged(
  client: SeqeraClient,
  operation: string,
  workspaceId: string | undefined,
): void {
  const kinds = caches.get(families.get(client) ?? client);
  for (const [kind, lists] of kinds ?? []) {
    if (!kind.changedBy?.includes(operation)) continue;
    for (const key of [...lists.keys()]) {
      if (kind.global || key.split("\n")[0] === (workspaceId ?? "")) lists.delete(key);
    }
  }
}
