import type { CliContext } from "./context.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { readerGone, writeText } from "./output.js";
import { withSession } from "./session.js";
import { singleArgument } from "./single-argument.js";

/**
 * `seqera-api logs <workflowId>`: the run's console output (its nf-<id>.txt file); with
 * --follow, the console log as it grows until the run ends, each line once.
 */
export async function logsCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const workflowId = singleArgument(args, "Usage: seqera-api logs <workflowId> [--follow]");
  const { downloadRunLog, followRunLog } = await import("../index.js");
  return withSession(`logs ${workflowId}`, values, context, async (session) => {
    const { client, pollIntervalMs, scope } = session;
    const { signal } = scope;
    if (values.follow) {
      for await (const line of followRunLog(client, workflowId, { pollIntervalMs, signal })) {
        await writeText(context.stdout, `${line}\n`);
        if (readerGone(context.stdout)) break;
      }
    } else {
      const fileName = `nf-${workflowId}.txt`;
      await writeText(
        context.stdout,
        await downloadRunLog(client, workflowId, { fileName, signal }),
      );
    }
    return EXIT.ok;
  });
}
