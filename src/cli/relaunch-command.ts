import type { CliContext } from "./context.js";
import type { OptionValues } from "./command-line.js";
import type { ExitCode } from "./exit-codes.js";
import { launchArgument, launchSettings } from "./launch-options.js";
import { launchThenWait } from "./launch-then-wait.js";
import { UsageError } from "../errors/cli-errors.js";
import { withSession } from "./session.js";
import { checkResumeKeeps } from "../automation/relaunch-rule.js";

/**
 * `seqera-api relaunch <workflowId>`: resumes the run as tw runs relaunch does (its launch, its
 * session, from the commit it ran), or with --no-resume runs its launch again from scratch.
 * Prints what launch prints.
 */
export async function relaunchCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const workflowId = launchArgument(
    args,
    "Usage: seqera-api relaunch <workflowId> [--no-resume | --resume-if-available] [--wait] [--timeout 6h]",
  );
  if (values["no-resume"] && values["resume-if-available"]) {
    throw new UsageError("Give --no-resume or --resume-if-available, not both.");
  }
  const resume = values["resume-if-available"] ? "if-available" : !values["no-resume"];
  checkResumeKeeps({ resume, workDir: values["work-dir"], pipeline: values.pipeline });
  const { relaunchRun } = await import("../index.js");
  return withSession(`relaunch ${workflowId}`, values, context, async (session) => {
    // Read within --timeout: the command's deadline bounds its files too.
    const settings = await launchSettings(values, context, session.scope.signal);
    return launchThenWait(session, values.wait === true, context, (signal) =>
      relaunchRun(session.client, workflowId, {
        ...settings,
        resume,
        pipeline: values.pipeline,
        signal,
      }),
    );
  });
}
