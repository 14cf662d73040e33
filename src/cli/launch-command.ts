import type { LaunchResult, LaunchSettings } from "../index.js";
import type { CliContext } from "./context.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { launchArgument, launchSettings } from "./launch-options.js";
import { writeBody } from "./output.js";
import { openSession, type Session } from "./session.js";
import { statusReporter } from "./wait-command.js";

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
  const pipeline = launchArgument(
    args,
    "Usage: seqera-api launch <pipeline name or URL> [--params-file file] [--wait]",
  );
  const settings = await launchSettings(values);
  const session = await openSession(values, context);
  const { launchPipeline } = await import("../index.js");
  return reportLaunch(session, values, context, (wait) =>
    launchPipeline(session.client, pipeline, {
      ...settings,
      labels: values.labels,
      disableOptimization: values["disable-optimization"],
      wait,
    }),
  );
}

/**
 * Runs a launch (with the wait --wait asks for), prints its result, and says on stderr which
 * labels it created; a run that failed is printed too, before its one-line error.
 */
export async function reportLaunch(
  session: Session,
  values: OptionValues,
  context: CliContext,
  launch: (wait: LaunchSettings["wait"]) => Promise<LaunchResult>,
): Promise<ExitCode> {
  const { RunFailedError } = await import("../index.js");
  const status = statusReporter(context.stderr);
  try {
    const result = await launch(
      values.wait && {
        timeoutMs: session.timeoutMs,
        pollIntervalMs: session.pollIntervalMs,
        onStatus: status.update,
      },
    );
    if (result.createdLabels.length > 0) {
      const names = result.createdLabels.map((name) => JSON.stringify(name)).join(", ");
      context.stderr.write(`seqera-api: created the missing labels ${names}\n`);
    }
    await writeBody(context.stdout, result);
    return EXIT.ok;
  } catch (error) {
    // A failed run is an answer too: print it for the script, then the one-line error.
    if (error instanceof RunFailedError) {
      await writeBody(context.stdout, { workflowId: error.workflowId, run: error.run });
    }
    throw error;
  } finally {
    status.done();
    await session.client.close();
  }
}
