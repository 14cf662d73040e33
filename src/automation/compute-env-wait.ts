/** Waiting for a compute environment to become available. */
import type { SeqeraClient } from "../client/client.js";
import { ComputeEnvFailedError } from "../errors/compute-env-failed-error.js";
import { UnexpectedAnswerError } from "../errors/unexpected-answer-error.js";
import { waitFor, type WaitOptions } from "./poll.js";
import type { ComputeEnv } from "../schema/types.js";

/**
 * Every status a compute environment has in any release (as RUN_STATUSES): all the pinned
 * release's, and those older releases lack (DISABLED, DELETING, DELETED).
 */
const COMPUTE_ENV_STATUSES: readonly string[] = Object.keys({
  CREATING: 0,
  AVAILABLE: 0,
  DISABLED: 0,
  DELETING: 0,
  ERRORED: 0,
  INVALID: 0,
  DELETED: 0,
} satisfies Record<NonNullable<ComputeEnv["status"]>, 0> & Record<string, 0>);

export interface WaitForComputeEnvOptions extends WaitOptions {
  /** Called with the compute environment as first seen and each time its status changes. */
  onStatus?(computeEnv: ComputeEnv): void;
}

/**
 * Polls `GET /compute-envs/{computeEnvId}` while it is CREATING; resolves with it once
 * AVAILABLE. Any other status (ERRORED, INVALID, DISABLED, DELETING, DELETED) rejects with
 * ComputeEnvFailedError carrying the service's message; `maxWaitMs` with WaitTimeoutError. A
 * status this release does not list is waited through, as CREATING is, and logged.
 */
export async function waitForComputeEnv(
  client: SeqeraClient,
  computeEnvId: string,
  options: WaitForComputeEnvOptions = {},
): Promise<ComputeEnv> {
  const computeEnv = await waitFor<ComputeEnv>(
    {
      resource: "compute environment",
      id: computeEnvId,
      describe: async (signal) => {
        const answer = await client.GET("/compute-envs/{computeEnvId}", {
          params: { path: { computeEnvId } },
          signal,
        });
        const { computeEnv } = answer;
        if (!computeEnv?.status) {
          throw new UnexpectedAnswerError(
            "GET /compute-envs/{computeEnvId}",
            computeEnv ? "computeEnv.status" : "computeEnv",
            "a compute environment with a status",
            answer,
          );
        }
        return computeEnv;
      },
      statusOf: (c) => c.status ?? undefined,
      // A status this release does not list is not an end (nor is CREATING).
      isDone: (c) =>
        c.status != null && c.status !== "CREATING" && COMPUTE_ENV_STATUSES.includes(c.status),
      onStatus: options.onStatus,
      known: {
        statuses: COMPUTE_ENV_STATUSES,
        operation: {
          method: "GET",
          path: "/compute-envs/{computeEnvId}",
          operationId: "DescribeComputeEnv",
        },
        logger: client.config.logger,
      },
    },
    options,
  );
  if (computeEnv.status !== "AVAILABLE") throw new ComputeEnvFailedError(computeEnvId, computeEnv);
  return computeEnv;
}
