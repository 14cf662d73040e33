import type { CliContext } from "./context.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import { withSession } from "./session.js";
import { singleArgument } from "./single-argument.js";

/** `seqera-api cancel <workflowId>`: cancels the run; prints `{"workflowId", "cancelled": true}`. */
export async function cancelCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const workflowId = singleArgument(args, "Usage: seqera-api cancel <workflowId>");
  const { cancelRun } = await import("../index.js");
  return withSession(`cancel ${workflowId}`, values, context, async ({ client, scope }) => {
    await cancelRun(client, workflowId, { signal: scope.signal });
    await writeBody(context.stdout, { workflowId, cancelled: true });
    return EXIT.ok;
  });
}
