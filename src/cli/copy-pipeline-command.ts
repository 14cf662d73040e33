import type { CliContext } from "./context.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import { withSession } from "./session.js";
import { singleArgument } from "./single-argument.js";

/**
 * `seqera-api copy-pipeline <name> --to org/workspace [--as name]`: copyPipeline from the
 * workspace (-w) to another; prints {"pipelineId", "computeEnvId", "computeEnvBy"}.
 */
export async function copyPipelineCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const usage = "Usage: seqera-api copy-pipeline <pipeline> --to org/workspace [--as name]";
  const pipeline = singleArgument(args, usage);
  if (!values.to) throw new UsageError(`--to is needed: the workspace to copy to. ${usage}`);
  const { copyPipeline } = await import("../index.js");
  return withSession(`copy-pipeline ${pipeline}`, values, context, async ({ client, scope }) => {
    const copied = await copyPipeline(client, pipeline, {
      to: values.to!,
      ...(values.as && { name: values.as }),
      signal: scope.signal,
    });
    await writeBody(context.stdout, copied);
    return EXIT.ok;
  });
}
