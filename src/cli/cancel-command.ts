import type { CliContext } from "./context.js";
import type { OptionValues } from "./command-line.js";
import { withDeadline } from "./duration.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import { openSession } from "./session.js";
import { singleArgument } from "./single-argument.js";

/** `seqera-api cancel <workflowId>`: cancels the run; prints `{"workflowId", "cancelled": true}`. */
export async function cancelCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const workflowId = singleArgument(args, "Usage: seqera-api cancel <workflowId>");
  const { client, timeoutMs } = await openSession(values, context);
  const { cancelRun } = await import("../index.js");
  try {
    await withDeadline(timeoutMs, `cancel ${workflowId}`, (signal) =>
      cancelRun(client, workflowId, { signal }),
    );
    await writeBody(context.stdout, { workflowId, cancelled: true });
    return EXIT.ok;
  } finally {
    await client.close();
  }
}
