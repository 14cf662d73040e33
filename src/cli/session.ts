import type { SeqeraClient } from "../index.js";
import type { WorkspaceRef } from "../automation/names.js";
import { clientOptions } from "./client-options.js";
import type { OptionValues } from "./command-line.js";
import { UsageError } from "./cli-errors.js";
import { parseDuration } from "./duration.js";
import type { CliContext } from "./context.js";

/** What the lifecycle commands share: a client, the workspace, and how long and how often to poll. */
export interface Session {
  client: SeqeraClient;
  /** --workspace or TOWER_WORKSPACE_ID: an id or "org/workspace", resolved by the helpers. */
  workspaceId: WorkspaceRef | undefined;
  timeoutMs: number | undefined;
  pollIntervalMs: number | undefined;
}

/**
 * Opens a client for the automation helpers. The workspace goes to each helper rather than to
 * the client's settings, so that an "org/workspace" name is resolved by the helpers.
 */
export async function openSession(values: OptionValues, context: CliContext): Promise<Session> {
  const duration = (flag: string, text: string | undefined) =>
    text === undefined ? undefined : parseDuration(flag, text);
  const timeoutMs = duration("--timeout", values.timeout);
  const pollIntervalMs = duration("--poll-interval", values["poll-interval"]);
  const workspaceId = workspaceRef(values, context);
  const { createSeqeraClient } = await import("../index.js");
  const options = clientOptions({ ...values, workspace: undefined }, context.env, context.stderr);
  const client = createSeqeraClient({ ...options, workspaceId: null });
  return { client, workspaceId, timeoutMs, pollIntervalMs };
}

/** --workspace, else TOWER_WORKSPACE_ID: an id or "org/workspace"; undefined when neither is set. */
export function workspaceRef(values: OptionValues, context: CliContext): string | undefined {
  return (values.workspace ?? context.env.TOWER_WORKSPACE_ID)?.trim() || undefined;
}

/**
 * A client for operation calls, with --workspace or TOWER_WORKSPACE_ID as its default workspace.
 * The client's settings take ids; an "org/workspace" name is looked up first, with the helpers.
 */
export async function openClient(values: OptionValues, context: CliContext): Promise<SeqeraClient> {
  const { createSeqeraClient, resolveWorkspaceId } = await import("../index.js");
  const options = clientOptions(values, context.env, context.stderr);
  const ref = workspaceRef(values, context);
  if (ref === undefined || /^\d+$/.test(ref)) return createSeqeraClient(options);
  const lookup = createSeqeraClient({ ...options, workspaceId: null });
  try {
    const workspaceId = await resolveWorkspaceId(lookup, ref).catch((error: unknown) => {
      throw error instanceof TypeError ? new UsageError(error.message) : error;
    });
    return createSeqeraClient({ ...options, workspaceId });
  } finally {
    await lookup.close();
  }
}
