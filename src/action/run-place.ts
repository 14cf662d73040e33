/** Where a run is: its page in the web interface and its workspace, and a workspace not found. */
import type { SeqeraClient } from "../index.js";
import { InputError } from "../errors/cli-errors.js";

export interface RunPlace {
  url: string;
  /** Empty for the personal workspace. */
  workspaceId?: string;
  /** As tw's `workspaceRef`: "[organization / workspace]", or "user". */
  workspaceRef: string;
}

/**
 * The run's page, as tw builds it: the API's host without `api.` and its path without `/api`,
 * then the workspace's names (or the user's, for a personal run). Only the names are asked of
 * the endpoint.
 */
export async function runPlace(
  client: SeqeraClient,
  workspace: string | undefined,
  workflowId: string,
  signal: AbortSignal,
): Promise<RunPlace> {
  const { find } = await import("../index.js");
  const web = new URL(client.config.baseUrl);
  web.hostname = web.hostname.replace(/^api\./, "");
  const root = `${web.origin}${web.pathname.replace(/\/+$/, "").replace(/\/api$/, "")}`;
  const part = encodeURIComponent;
  const watch = `watch/${part(workflowId)}`;
  if (workspace === undefined) {
    const { user } = await client.GET("/user-info", { signal });
    return { url: `${root}/user/${part(user?.userName ?? "")}/${watch}`, workspaceRef: "user" };
  }
  const { orgName, workspaceName, workspaceId } = await find.workspace(client, workspace, {
    signal,
  });
  return {
    url: `${root}/orgs/${part(orgName)}/workspaces/${part(workspaceName)}/${watch}`,
    workspaceId: String(workspaceId),
    workspaceRef: `[${orgName} / ${workspaceName}]`,
  };
}

/**
 * A failure before the launch told in the terms of the input: a workspace the token's user
 * does not have (an unknown name; by id, a 403 that is not the token refused, since the user's
 * workspaces could be listed) is a bad workspace_id listing the workspaces the user has. Any
 * other failure, or one this cannot tell, is returned as it is.
 */
export async function workspaceNotFound(
  client: SeqeraClient,
  workspace: string | undefined,
  error: unknown,
  signal: AbortSignal,
): Promise<unknown> {
  const { ForbiddenError, NameNotFoundError, listWorkspaces } = await import("../index.js");
  const forbidden = error instanceof ForbiddenError && error.path !== "/user-info";
  const unknown = error instanceof NameNotFoundError && error.kind === "workspace";
  if (workspace === undefined || !(forbidden || unknown)) return error;
  let names: string[];
  try {
    const workspaces = await listWorkspaces(client, { signal });
    if (workspaces.some((w) => w.workspaceId === workspace)) return error;
    names = workspaces.map((w) => `${w.orgName}/${w.workspaceName} (${w.workspaceId})`);
  } catch {
    // The token itself may be refused: the original error says so.
    return error;
  }
  return new InputError(
    `Input workspace_id ${workspace}: no such workspace among the token owner's: ${names.length ? names.join(", ") : "none (only the personal workspace; leave workspace_id empty)"}.`,
  );
}
