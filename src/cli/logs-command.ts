import type { CallContext } from "./call-command.js";
import { DeadlineError, UsageError } from "./cli-errors.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { write } from "./output.js";
import { openSession } from "./session.js";

/**
 * `seqera-api logs <workflowId>`: the run's console output (its nf-<id>.txt file); with
 * --follow, the console log as it grows until the run ends, each line once.
 */
export async function logsCommand(
  args: string[],
  values: OptionValues,
  context: CallContext,
): Promise<ExitCode> {
  const [workflowId, ...extra] = args;
  if (workflowId === undefined || extra.length > 0) {
    throw new UsageError("Usage: seqera-api logs <workflowId> [--follow]");
  }
  const session = await openSession(values, context);
  const { downloadRunLog, followRunLog } = await import("../index.js");
  const { client, workspaceId, pollIntervalMs, timeoutMs } = session;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  try {
    if (values.follow) {
      for await (const line of followRunLog(client, workflowId, {
        workspaceId,
        pollIntervalMs,
        signal,
      })) {
        await write(context.stdout, `${line}\n`);
      }
    } else {
      const text = await downloadRunLog(client, workflowId, {
        workspaceId,
        fileName: `nf-${workflowId}.txt`,
        signal,
      });
      await write(context.stdout, text);
    }
    return EXIT.ok;
  } catch (error) {
    if (signal?.aborted)
      throw new DeadlineError(
        `logs ${workflowId} did not finish within --timeout ${values.timeout}.`,
      );
    throw error;
  } finally {
    await client.close();
  }
}
