/**
 * The workspace module: a workspace ref (core/workspace-ref.ts's one rule) resolved to its ids,
 * for the client's own `workspaceId`, `find.workspace`, the CLI and the Action alike. Names are
 * looked up among the user's workspaces once per client family (client/lookup.ts); a
 * `WorkspaceStore` keeps them across processes too (the CLI's disk cache) on the same path.
 */
import type { SeqeraClient } from "./types.js";
import { keptList, lookup, lookupOptional, type Lookup } from "./lookup.js";
import { parseWorkspaceRef, type WorkspaceRef } from "../core/workspace-ref.js";
import { NameNotFoundError } from "../errors/name-not-found-error.js";

/**
 * A workspace the user belongs to, with its organization (`GET /user/{userId}/workspaces`); ids
 * as digits (int64-safe).
 */
export interface WorkspaceInfo {
  orgId: string;
  orgName: string;
  workspaceId: string;
  workspaceName: string;
}

/**
 * Where resolved workspaces are kept beyond a client family (the CLI's file, shared by its
 * processes): `get` answers undefined for a miss or any fault of its own.
 */
export interface WorkspaceStore {
  get(ref: string): Promise<WorkspaceInfo | undefined>;
  set(ref: string, info: WorkspaceInfo): Promise<void>;
  delete(ref: string): Promise<void>;
}

export interface ResolveWorkspaceOptions {
  signal?: AbortSignal;
  /** Resolve with undefined when the user has no such workspace. */
  optional?: boolean;
  store?: WorkspaceStore;
}

export const WORKSPACES: Lookup<WorkspaceInfo> = {
  kind: "workspace",
  global: true,
  list: async (client, signal) => {
    const { user } = await client.GET("/user-info", { signal });
    const { orgsAndWorkspaces } = await client.GET("/user/{userId}/workspaces", {
      params: { path: { userId: user!.id! } },
      signal,
    });
    // The answer also lists each organization alone (no workspace): only whole entries are kept.
    return (orgsAndWorkspaces ?? []).flatMap((w) =>
      w.workspaceId != null && w.workspaceName
        ? [
            {
              orgId: String(w.orgId),
              orgName: w.orgName ?? "",
              workspaceId: String(w.workspaceId),
              workspaceName: w.workspaceName,
            },
          ]
        : [],
    );
  },
  names: (w) => [`${w.orgName}/${w.workspaceName}`],
  id: (w) => w.workspaceId,
};

/**
 * The id of a workspace given as an id or "organization/workspace", as digits (int64 ids may
 * not survive a float): a name is looked up among the user's workspaces, once per client family.
 */
export async function workspaceIdOf(
  client: SeqeraClient,
  ref: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const parsed = parseWorkspaceRef(ref);
  if (parsed && "id" in parsed) return parsed.id;
  return (await lookup(client, WORKSPACES, ref, signal)).workspaceId;
}

/**
 * The workspace "organization/workspace" (or a workspace id) the user belongs to, with its
 * organization's id and name (`GET /user-info`, `GET /user/{userId}/workspaces`, kept per client
 * family, and in `store` when given).
 */
export async function resolveWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options: ResolveWorkspaceOptions & { optional: true },
): Promise<WorkspaceInfo | undefined>;
export async function resolveWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options?: ResolveWorkspaceOptions & { optional?: false },
): Promise<WorkspaceInfo>;
export async function resolveWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options?: ResolveWorkspaceOptions,
): Promise<WorkspaceInfo | undefined>;
export async function resolveWorkspace(
  client: SeqeraClient,
  ref: WorkspaceRef,
  options: ResolveWorkspaceOptions = {},
): Promise<WorkspaceInfo | undefined> {
  const { signal, store } = options;
  const text = String(ref).trim();
  const kept = await store?.get(text);
  if (kept) return kept;
  const parsed = parseWorkspaceRef(text);
  const byId = parsed !== undefined && "id" in parsed;
  const found = byId
    ? (await keptList(client, WORKSPACES, signal)).find((w) => w.workspaceId === text)
    : await lookupOptional(client, WORKSPACES, text, signal);
  if (!found) {
    if (options.optional) return undefined;
    // The lookup's own error names the near workspaces.
    if (!byId) await lookup(client, WORKSPACES, text, signal);
    throw new NameNotFoundError("workspace", text, undefined, []);
  }
  await store?.set(text, found);
  return { ...found };
}
