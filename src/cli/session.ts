import type { SeqeraClient } from "../index.js";
import { clientOptions } from "./client-options.js";
import type { OptionValues } from "./command-line.js";
import { withCommandScope, type CommandScope } from "./command-scope.js";
import { parseDuration } from "./duration.js";
import type { CliContext } from "./context.js";

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
  const client = await openClient(values, context);
  try {
    return await withCommandScope(what, timeoutMs, context, (scope) =>
      body({ client, scope, timeoutMs, pollIntervalMs }),
    );
  } finally {
    await client.close();
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
