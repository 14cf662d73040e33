/**
 * Type-level tests of the automation helpers, checked by `tsc --noEmit` and never executed.
 * Each `@ts-expect-error` sits next to a positive case differing only in the mistake.
 */
import { expectTypeOf } from "vitest";
import {
  launchPipeline,
  toLaunchRequest,
  uploadDataset,
  waitForRun,
  type Run,
  type RunStatus,
  type SeqeraClient,
} from "../../src/index.js";

export async function typeChecks(client: SeqeraClient): Promise<void> {
  // A launch as read goes back as a request body with no cast.
  const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
    params: { path: { pipelineId: 1 } },
  });
  await client.POST("/workflow/launch", { body: { launch: toLaunchRequest(launch!) } });
  const { launch: earlier } = await client.GET("/workflow/{workflowId}/launch", {
    params: { path: { workflowId: "x" } },
  });
  await client.POST("/workflow/launch", { body: { launch: toLaunchRequest(earlier!) } });

  // The final run is the typed Workflow; `until` takes the schema's statuses only.
  const run = await waitForRun(client, "x", { until: ["RUNNING"], timeoutMs: 1000 });
  expectTypeOf(run).toEqualTypeOf<Run>();
  expectTypeOf(run.status).toEqualTypeOf<RunStatus | undefined>();
  // @ts-expect-error not a run status
  await waitForRun(client, "x", { until: ["RUNING"] });

  await launchPipeline(client, { pipeline: "rnaseq", params: { a: 1 }, wait: { timeoutMs: 1 } });
  // @ts-expect-error the pipeline is required
  await launchPipeline(client, { params: { a: 1 } });

  // A dataset comes from content or a file, not both.
  await uploadDataset(client, { name: "d", content: "a,b\n" });
  await uploadDataset(client, { name: "d", file: "/tmp/d.csv" });
  // @ts-expect-error content and file together
  await uploadDataset(client, { name: "d", content: "a,b\n", file: "/tmp/d.csv" });
}
