import type { SeqeraClient } from "../index.js";
import { clientOptions } from "./client-options.js";
import type { OptionValues } from "./options.js";
import { withCommandScope, type CommandScope } from "./command-scope.js";
import { parseDuration } from "./duration.js";
import type { CliContext } from "./context.js";
import { cacheFile, fileStore } from "./workspace-cache.js";
import type { WorkspaceInfo } from "../client/workspaces.js";
import { isWorkspaceId } from "../core/workspace-ref.js";

/** What the lifecycle commands share: a client, the command's scope, how long and how often to poll. */
export interface Session {
  client: SeqeraClient;
  /** Its signal goes to every call and helper: --timeout and SIGINT/SIGTERM stop them all. */
  scope: CommandScope;
  timeoutMs: number | undefined;
  pollIntervalMs: number | undefined;
}

/**
 * Runs a command with a client for the automation helpers, whose workspace (--workspace, else
 * TOWER_WORKSPACE_ID, an id or "org/workspace") is the helpers' default, within one --timeout
 * for the whole command (`what` names it in the timeout's message); closes the client.
 */
export async function withSession<T>(
  what: string,
  values: OptionValues,
  context: CliContext,
  body: (session: Session) => Promise<T>,
): Promise<T> {
  const duration = (flag: string, text: string | undefined) =>
    text === undefined ? undefined : parseDuration(flag, text);
  const timeoutMs = duration("--timeout", values.timeout);
  const pollIntervalMs = duration("--poll-interval", values["poll-interval"]);
  const opened = await openClient(values, context);
  try {
    return await withCommandScope(what, timeoutMs, context, async (scope) => {
      const { client, drop } = await commandWorkspace(opened, values, context, scope.signal);
      try {
        return await body({ client, scope, timeoutMs, pollIntervalMs });
      } catch (error) {
        await drop(error);
        throw error;
      }
    });
  } finally {
    await opened.close();
  }
}

/** --workspace, else TOWER_WORKSPACE_ID: an id or "org/workspace"; undefined when neither is set. */
export function workspaceRef(values: OptionValues, context: CliContext): string | undefined {
  return (values.workspace ?? context.env.TOWER_WORKSPACE_ID)?.trim() || undefined;
}

/**
 * A client with the flags and the TOWER_* variables; a workspace given by name is resolved by
 * the client on the first call that needs it.
 */
export async function openClient(values: OptionValues, context: CliContext): Promise<SeqeraClient> {
  const { createSeqeraClient } = await import("../index.js");
  return createSeqeraClient(clientOptions(values, context.env, context.stderr));
}

/** The command's workspace: a client in it, its ids when asked, and what to do on a failure. */
export interface CommandWorkspace {
  client: SeqeraClient;
  /** The ids, when the command needs them (a path's `orgId`/`workspaceId`) or had them kept. */
  ids?: WorkspaceInfo;
  /** Forgets a kept workspace the service answered 403 or 404 for. */
  drop(error: unknown): Promise<void>;
}

/**
 * The workspace of --workspace or TOWER_WORKSPACE_ID, as ids: from the workspace cache when a
 * command looked it up less than 10 minutes ago, else looked up once (and kept). An id alone
 * needs no lookup unless `needOrgId`. With no workspace configured, the client as it is.
 */
export async function commandWorkspace(
  client: SeqeraClient,
  values: OptionValues,
  context: CliContext,
  signal: AbortSignal,
  needOrgId = false,
): Promise<CommandWorkspace> {
  const none = { client, drop: async () => {} };
  const ref = workspaceRef(values, context);
  if (ref === undefined || (isWorkspaceId(ref) && !needOrgId)) return none;
  const file = cacheFile(
    context.env,
    client.config.baseUrl,
    context.env.TOWER_ACCESS_TOKEN!.trim(),
  );
  const store = file === undefined ? undefined : fileStore(file);
  const { ForbiddenError, NotFoundError, find } = await import("../index.js");
  const ids = await find.workspace(client, ref, { signal, store });
  return {
    client: client.withWorkspace(ids.workspaceId),
    ids,
    drop: async (error) => {
      if (store && (error instanceof ForbiddenError || error instanceof NotFoundError)) {
        await store.delete(ref);
      }
    },
  };
}
