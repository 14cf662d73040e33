import type { Params } from "../automation/params.js";
import type { CliContext } from "./context.js";
import { UsageError } from "./cli-errors.js";
import type { OptionValues } from "./command-line.js";
import type { ExitCode } from "./exit-codes.js";
import { parseYamlText, readUtf8File } from "./input-text.js";
import { launchThenWait } from "./launch-then-wait.js";
import { withSession } from "./session.js";
import { singleArgument } from "./single-argument.js";

/**
 * `seqera-api launch <pipeline>`: a Launchpad pipeline by name (or a repository URL) with its
 * saved configuration, params merged; with --wait, until the run ends. Prints
 * `{"workflowId": ..., "run": ...}` (run only when waited).
 */
export async function launchCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const pipeline = singleArgument(
    args,
    "Usage: seqera-api launch <pipeline name or URL> [--params file] [--wait]",
  );
  const params = values.params === undefined ? undefined : await readParams(values.params);
  const { launchPipeline } = await import("../index.js");
  return withSession(`launch ${pipeline}`, values, context, (session) =>
    launchThenWait(session, values.wait === true, context, (signal) =>
      launchPipeline(session.client, {
        pipeline,
        params,
        computeEnv: values["compute-env"],
        labels: values.label,
        revision: values.revision,
        runName: values["run-name"],
        signal,
      }),
    ),
  );
}

/** JSON or YAML (YAML reads JSON too); an object, as params are. */
async function readParams(file: string): Promise<Params> {
  const label = `--params ${file}`;
  const params = await parseYamlText(label, await readUtf8File(label, file));
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new UsageError(`--params ${file} must hold an object of params (name: value).`);
  }
  return params as Params;
}
