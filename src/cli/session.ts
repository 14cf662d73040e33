import type { SeqeraClient } from "../index.js";
import { clientOptions } from "./client-options.js";
import type { OptionValues } from "./command-line.js";
import { parseDuration } from "./duration.js";
import type { CliContext } from "./context.js";

/** What the lifecycle commands share: a client, and how long and how often to poll. */
export interface Session {
  client: SeqeraClient;
  timeoutMs: number | undefined;
  pollIntervalMs: number | undefined;
}

/**
 * Opens a client for the automation helpers; its workspace (--workspace, else
 * TOWER_WORKSPACE_ID, an id or "org/workspace") is the helpers' default.
 */
export async function openSession(values: OptionValues, context: CliContext): Promise<Session> {
  const duration = (flag: string, text: string | undefined) =>
    text === undefined ? undefined : parseDuration(flag, text);
  const timeoutMs = duration("--timeout", values.timeout);
  const pollIntervalMs = duration("--poll-interval", values["poll-interval"]);
  return { client: await openClient(values, context), timeoutMs, pollIntervalMs };
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
