import type { SeqeraClient } from "../index.js";
import type { WorkspaceRef } from "../automation/names.js";
import { clientOptions } from "./client-options.js";
import type { OptionValues } from "./command-line.js";
import { parseDuration } from "./duration.js";
import type { CallContext } from "./call-command.js";

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
export async function openSession(values: OptionValues, context: CallContext): Promise<Session> {
  const duration = (flag: string, text: string | undefined) =>
    text === undefined ? undefined : parseDuration(flag, text);
  const timeoutMs = duration("--timeout", values.timeout);
  const pollIntervalMs = duration("--poll-interval", values["poll-interval"]);
  const workspaceId = (values.workspace ?? context.env.TOWER_WORKSPACE_ID)?.trim() || undefined;
  const { createSeqeraClient } = await import("../index.js");
  const options = clientOptions({ ...values, workspace: undefined }, context.env, context.stderr);
  const client = createSeqeraClient({ ...options, workspaceId: null });
  return { client, workspaceId, timeoutMs, pollIntervalMs };
}
