/**
 * Type-level tests of the automation helpers, checked by `tsc --noEmit` and never executed.
 * Each `@ts-expect-error` sits next to a positive case differing only in the mistake.
 */
import { expectTypeOf } from "vitest";
import {
  failedTasks,
  find,
  launchPipeline,
  listRuns,
  relaunchRun,
  setWorkspaceRole,
  toComputeEnvRequest,
  toCredentialsRequest,
  toLabelRequest,
  toLaunchRequest,
  toPipelineRequest,
  uploadDataset,
  waitForRun,
  type Run,
  type RunStatus,
  type SeqeraClient,
} from "../../src/index.js";
import { type Pipeline } from "../../src/schema/types.js";
import { type WorkspaceInfo } from "../../src/client/workspaces.js";
import { type Identified } from "../../src/model/identified.js";

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
  const run = await waitForRun(client, "x", { until: ["RUNNING"], maxWaitMs: 1000 });
  expectTypeOf(run).toEqualTypeOf<Identified<Run, "id">>();
  // The service writes an absent status as null.
  expectTypeOf(run.status).toEqualTypeOf<RunStatus | null | undefined>();
  // @ts-expect-error not a run status
  await waitForRun(client, "x", { until: ["RUNING"] });

  await launchPipeline(client, "rnaseq", { params: { a: 1 }, wait: { maxWaitMs: 1 } });
  // @ts-expect-error the pipeline is required, as the second argument
  await launchPipeline(client, { pipeline: "rnaseq" });
  // The pipeline first, then tw's settings named as the request's fields.
  await launchPipeline(client, "rnaseq", {
    stubRun: true,
    labels: ["a=b"],
    disableOptimization: true,
  });
  // @ts-expect-error a launch setting is typed
  await launchPipeline(client, "rnaseq", { stubRun: "yes" });
  await relaunchRun(client, "x", { resume: false, workDir: "s3://w" });

  // Optional finds say so in their type; the others give the resource.
  type Found = Identified<Pipeline, "pipelineId" | "name">;
  expectTypeOf(await find.pipeline(client, "p")).toEqualTypeOf<Found>();
  expectTypeOf(await find.pipeline(client, "p", { optional: true })).toEqualTypeOf<
    Found | undefined
  >();
  const maybe = Math.random() > 0.5;
  expectTypeOf(await find.pipeline(client, "p", { optional: maybe })).toEqualTypeOf<
    Found | undefined
  >();
  expectTypeOf(await find.workspace(client, "org/ws")).toEqualTypeOf<WorkspaceInfo>();
  expectTypeOf((await find.primaryComputeEnv(client)).id).toEqualTypeOf<string>();
  // The ids a found organization or team gives are what the team operations take: no `!`.
  const team = await find.team(client, "acme/bioinfo");
  await client.GET("/orgs/{orgId}/teams/{teamId}", {
    params: { path: { orgId: team.orgId, teamId: team.teamId } },
  });
  const org = await find.organization(client, "acme", { optional: true });
  expectTypeOf(org?.orgId).toEqualTypeOf<string | undefined>();
  // `under` adds the objects and bytes, optional or not; without it there are none.
  expectTypeOf(
    (await find.dataLink(client, "raw", { under: "runs" })).bytes,
  ).toEqualTypeOf<number>();
  const maybeLink = await find.dataLink(client, "raw", { under: "", optional: true });
  expectTypeOf(maybeLink?.objects).toEqualTypeOf<{ path: string; size: number }[] | undefined>();
  // @ts-expect-error no objects without `under`
  (await find.dataLink(client, "raw")).objects;
  // @ts-expect-error a workspace role is one of the service's
  await setWorkspaceRole(client, { team: "bioinfo" }, "maintainer");
  expectTypeOf(await setWorkspaceRole(client, { user: "ana" }, "view")).toEqualTypeOf<
    "added" | "changed" | "unchanged"
  >();

  // What was read goes back as a request body: no `!`, no cast.
  const pipeline = await find.pipeline(client, "p");
  const { launch: saved } = await client.GET("/pipelines/{pipelineId}/launch", {
    params: { path: { pipelineId: 1 } },
  });
  await client.POST("/pipelines", { body: toPipelineRequest(pipeline, saved ?? {}) });
  const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
    params: { path: { computeEnvId: "c" } },
  });
  await client.POST("/compute-envs", { body: toComputeEnvRequest(computeEnv ?? {}) });
  const { credentials } = await client.GET("/credentials", {});
  for (const c of credentials ?? []) {
    await client.POST("/credentials", {
      body: toCredentialsRequest(c, { discriminator: "aws", accessKey: "k", secretKey: "s" }),
    });
  }
  const { labels } = await client.GET("/labels", {});
  for (const label of labels ?? []) {
    await client.withWorkspace("org/other").POST("/labels", { body: toLabelRequest(label) });
  }

  // Ids a helper hands on go into the next call without `!`.
  for await (const listed of listRuns(client, { status: "FAILED" })) {
    for (const task of await failedTasks(client, listed.id)) {
      await client.GET("/workflow/{workflowId}/task/{taskId}", {
        params: { path: { workflowId: listed.id, taskId: task.id } },
      });
    }
    await relaunchRun(client, listed.id);
  }
  const label = await find.label(client, "nightly");
  await client.DELETE("/labels/{labelId}", { params: { path: { labelId: label.id } } });
  const secret = await find.secret(client, "KEY");
  await client.DELETE("/pipeline-secrets/{secretId}", {
    params: { path: { secretId: secret.id } },
  });
  const found = await find.pipeline(client, "p");
  await client.GET("/pipelines/{pipelineId}/launch", {
    params: { path: { pipelineId: found.pipelineId } },
  });
  expectTypeOf(found.name).toEqualTypeOf<string>();
  const ended = await waitForRun(client, "x");
  await relaunchRun(client, ended.id);

  // A dataset comes from content or a file, not both.
  await uploadDataset(client, { name: "d", content: "a,b\n" });
  await uploadDataset(client, { name: "d", file: "/tmp/d.csv" });
  // @ts-expect-error content and file together
  await uploadDataset(client, { name: "d", content: "a,b\n", file: "/tmp/d.csv" });
}
