import type { CliContext } from "./context.js";
import type { OptionValues } from "./command-line.js";
import type { ExitCode } from "./exit-codes.js";
import { launchArgument, launchSettings } from "./launch-options.js";
import { launchThenWait } from "./launch-then-wait.js";
import { withSession } from "./session.js";

/**
 * `seqera-api launch <pipeline>`: a Launchpad pipeline by name (or a repository URL) with its
 * saved configuration and tw launch's options over it; with --wait, until the run ends. Prints
 * `{"workflowId", "createdLabels", "run"}` (run only when waited).
 */
export async function launchCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  if (values.rows !== undefined)
    return (await import("./launch-rows.js")).launchRows(args, values, context);
  const pipeline = launchArgument(
    args,
    "Usage: seqera-api launch <pipeline name or URL> [--params-file file] [--wait]",
  );
  const { launchPipeline } = await import("../index.js");
  return withSession(`launch ${pipeline}`, values, context, async (session) => {
    // Read within --timeout: the command's deadline bounds its files too.
    const settings = await launchSettings(values, context, session.scope.signal);
    return launchThenWait(session, values.wait === true, context, (signal) =>
      launchPipeline(session.client, pipeline, {
        ...settings,
        versionName: values["version-name"],
        versionId: values["version-id"],
        signal,
      }),
    );
  });
}
