import type { ComputeEnv } from "../schema/types.js";
import type { CliContext } from "./context.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import { withSession } from "./session.js";

/**
 * `seqera-api compute-envs wait <name>`: until the workspace's compute environment of that name
 * is AVAILABLE (exit 0) or can no longer be (ERRORED, INVALID...: exit 1); prints it as last
 * seen whatever the end, --timeout (exit 3) included, as `wait` prints a run.
 */
export async function computeEnvWait(
  name: string,
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const { find, waitForComputeEnv, ComputeEnvFailedError, WaitTimeoutError } =
    await import("../index.js");
  return withSession(`compute-envs wait ${name}`, values, context, async (session) => {
    const { client, scope, timeoutMs, pollIntervalMs } = session;
    const { id } = await find.computeEnv(client, name, { signal: scope.signal });
    let seen: ComputeEnv | undefined;
    scope.explainDeadline(
      () => new WaitTimeoutError("compute environment", id, timeoutMs!, seen?.status ?? undefined),
    );
    try {
      const computeEnv = await waitForComputeEnv(client, id, {
        pollIntervalMs,
        signal: scope.signal,
        onStatus: (latest) => (seen = latest),
      });
      await writeBody(context.stdout, computeEnv);
      return EXIT.ok;
    } catch (error) {
      const last = error instanceof ComputeEnvFailedError ? error.computeEnv : seen;
      if (last) await writeBody(context.stdout, last);
      throw error;
    }
  });
}
