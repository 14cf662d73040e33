import type { CliContext } from "./context.js";
import { withDeadline } from "./duration.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { write } from "./output.js";
import { openSession } from "./session.js";
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
  const session = await openSession(values, context);
  const { downloadRunLog, followRunLog } = await import("../index.js");
  const { client, pollIntervalMs, timeoutMs } = session;
  try {
    await withDeadline(timeoutMs, `logs ${workflowId}`, async (signal) => {
      if (values.follow) {
        const options = { pollIntervalMs, signal };
        for await (const line of followRunLog(client, workflowId, options)) {
          await write(context.stdout, `${line}\n`);
        }
      } else {
        const fileName = `nf-${workflowId}.txt`;
        await write(context.stdout, await downloadRunLog(client, workflowId, { fileName, signal }));
      }
    });
    return EXIT.ok;
  } finally {
    await client.close();
  }
}
