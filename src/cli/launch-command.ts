import { readFile } from "node:fs/promises";
import type { Params } from "../automation/params.js";
import type { CliContext } from "./context.js";
import { UsageError } from "./cli-errors.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import { openSession } from "./session.js";
import { singleArgument } from "./single-argument.js";
import { statusReporter } from "./wait-command.js";

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
  const session = await openSession(values, context);
  const { launchPipeline, RunFailedError } = await import("../index.js");
  const status = statusReporter(context.stderr);
  try {
    const result = await launchPipeline(session.client, {
      pipeline,
      params,
      computeEnv: values["compute-env"],
      labels: values.label,
      revision: values.revision,
      runName: values["run-name"],
      wait: values.wait && {
        timeoutMs: session.timeoutMs,
        pollIntervalMs: session.pollIntervalMs,
        onStatus: status.update,
      },
    });
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

/** JSON or YAML (YAML reads JSON too); an object, as params are. */
async function readParams(file: string): Promise<Params> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `--params ${file}: cannot read the file (${error.code ?? error.message}).`,
    );
  });
  const { parse } = await import("yaml");
  let params: unknown;
  try {
    params = parse(text);
  } catch (error) {
    throw new UsageError(`--params ${file} is neither JSON nor YAML: ${(error as Error).message}`);
  }
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    throw new UsageError(`--params ${file} must hold an object of params (name: value).`);
  }
  return params as Params;
}
