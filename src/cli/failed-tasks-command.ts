import type { CliContext } from "./context.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeLine } from "./output.js";
import { withSession } from "./session.js";
import { singleArgument } from "./single-argument.js";

/**
 * `seqera-api failed-tasks <workflowId> [--lines 20]`: each failed task of the run as one JSON
 * line, with its exitStatus and the last lines of its standard error (`stderr`).
 */
export async function failedTasksCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const workflowId = singleArgument(
    args,
    "Usage: seqera-api failed-tasks <workflowId> [--lines 20]",
  );
  const stderrLines = values.lines === undefined ? 20 : Number(values.lines);
  if (!(Number.isInteger(stderrLines) && stderrLines > 0)) {
    throw new UsageError(`--lines ${values.lines}: expected a whole number of lines above 0.`);
  }
  const { failedTasks } = await import("../index.js");
  return withSession(`failed-tasks ${workflowId}`, values, context, async ({ client, scope }) => {
    for (const task of await failedTasks(client, workflowId, {
      stderrLines,
      signal: scope.signal,
    })) {
      await writeLine(context.stdout, task);
    }
    return EXIT.ok;
  });
}
