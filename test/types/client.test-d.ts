/**
 * Type-level tests, checked by `tsc --noEmit` (npm test) and never executed: each
 * `@ts-expect-error` line must fail to compile, or the directive itself is an error. Each
 * negative case sits next to a positive one differing only in the mistake, so it cannot pass by
 * failing for some other reason.
 */
import type { Readable } from "openapi-typescript-helpers";
import { expectTypeOf } from "vitest";
import type { components, SeqeraClient } from "../../src/index.js";

type Schemas = components["schemas"];

export async function typeChecks(client: SeqeraClient): Promise<void> {
  // Paths: a known path compiles; a typo, or a path without that method, does not.
  // (With an init argument the error names the path; without one, TS reports the arity first.)
  await client.GET("/workflow", {});
  // @ts-expect-error wrong path
  await client.GET("/workflows", {});
  await client.GET("/service-info", {});
  // @ts-expect-error /service-info has no POST
  await client.POST("/service-info", {});

  // Parameter types.
  await client.GET("/workflow", { params: { query: { max: 10, attributes: ["labels"] } } });
  // @ts-expect-error max is a number
  await client.GET("/workflow", { params: { query: { max: "10" } } });
  // @ts-expect-error attributes only takes the schema's enum values
  await client.GET("/workflow", { params: { query: { attributes: ["everything"] } } });

  // Required path parameters.
  await client.GET("/workflow/{workflowId}", { params: { path: { workflowId: "w1" } } });
  // @ts-expect-error missing workflowId
  await client.GET("/workflow/{workflowId}", { params: { path: {} } });
  // @ts-expect-error missing params altogether
  await client.GET("/workflow/{workflowId}", {});
  // @ts-expect-error missing the init argument altogether
  await client.GET("/workflow/{workflowId}");
  // @ts-expect-error workflowId is a string
  await client.GET("/workflow/{workflowId}", { params: { path: { workflowId: 1 } } });

  // Required request bodies.
  await client.POST("/workflow/launch", {
    body: { launch: { computeEnvId: "ce", pipeline: "p", workDir: "w" } },
  });
  // @ts-expect-error the launch body is required
  await client.POST("/workflow/launch", {});

  // A body key the operation does not take is an error naming it, at any depth (a typo, or a
  // field of a later release): "Object literal may only specify known properties, and 'lanch'
  // does not exist in type ...".
  const launch = { computeEnvId: "ce", pipeline: "p" };
  await client.POST("/workflow/launch", { body: { launch: { ...launch, workDir: "w" } } });
  // @ts-expect-error workDir, not workdir
  await client.POST("/workflow/launch", { body: { launch: { ...launch, workdir: "w" } } });
  await client.POST("/workflow/launch", { body: { launch } });
  // @ts-expect-error launch, not lanch
  await client.POST("/workflow/launch", { body: { launch, lanch: launch } });
  await client.POST("/workflow/launch", { body: { launch }, timeoutMs: 5 });
  // @ts-expect-error a call option the client does not have
  await client.POST("/workflow/launch", { body: { launch }, timeout: 5 });
  await client.raw.PUT("/pipelines/{pipelineId}", {
    params: { path: { pipelineId: 1 } },
    body: { name: "rnaseq" },
  });
  await client.raw.PUT("/pipelines/{pipelineId}", {
    params: { path: { pipelineId: 1 } },
    // @ts-expect-error a field of the pipeline, not of its update request
    body: { name: "rnaseq", pipelineId: 1 },
  });

  // A request's optional field takes what an answer gives (null: absent to the service).
  const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
    params: { path: { computeEnvId: "ce" } },
  });
  const workDir = computeEnv?.config?.workDir;
  expectTypeOf(workDir).toEqualTypeOf<string | null | undefined>();
  await client.POST("/workflow/launch", { body: { launch: { ...launch, workDir } } });
  // A required one does not: the service would refuse the call.
  await client.POST("/orgs", { body: { organization: { name: "acme", fullName: "Acme" } } });
  await client.POST("/orgs", {
    body: {
      organization: {
        name: "acme",
        // @ts-expect-error fullName is required
        fullName: workDir,
      },
    },
  });

  // The id of what a create operation made is present (the client checks it).
  const { workflowId } = await client.POST("/workflow/launch", { body: { launch } });
  expectTypeOf(workflowId).toEqualTypeOf<string>();
  await client.GET("/workflow/{workflowId}", { params: { path: { workflowId } } });
  const created = await client.POST("/pipelines", { body: { name: "rnaseq", launch } });
  expectTypeOf(created.pipeline.pipelineId).toEqualTypeOf<number>();
  expectTypeOf(created.pipeline.name).toEqualTypeOf<string | null | undefined>();
  const { data: action } = await client.raw.POST("/actions", {
    body: { name: "on-push", source: "github", launch },
  });
  expectTypeOf(action.actionId).toEqualTypeOf<string>();
  // An answer that holds no new id is as the schema says.
  const { computeEnv: described } = await client.GET("/compute-envs/{computeEnvId}", {
    params: { path: { computeEnvId: "ce" } },
  });
  expectTypeOf(described?.id).toEqualTypeOf<string | null | undefined>();

  // Call options are typed too.
  await client.GET("/service-info", {
    acceptVersion: "2",
    timeoutMs: 1_000,
    signal: AbortSignal.timeout(5),
  });
  // @ts-expect-error acceptVersion is a string
  await client.GET("/service-info", { acceptVersion: 2 });
  await client.GET("/service-info", { maxResponseBytes: 1024, retryUnsafe: true });
  // @ts-expect-error maxResponseBytes is a number
  await client.GET("/service-info", { maxResponseBytes: "1 MiB" });

  // Results: the success body, as the operation table reads it.
  expectTypeOf(await client.GET("/service-info")).toEqualTypeOf<Schemas["ServiceInfoResponse"]>();
  const avatar = await client.GET("/avatars/{avatarId}", { params: { path: { avatarId: "a" } } });
  expectTypeOf(avatar).toEqualTypeOf<Blob>();
  const log = await client.GET("/workflow/{workflowId}/download", {
    params: { path: { workflowId: "w" } },
  });
  expectTypeOf(log).toEqualTypeOf<string>();
  const stream = await client.GET("/workflow/{workflowId}/download", {
    params: { path: { workflowId: "w" } },
    parseAs: "stream",
  });
  expectTypeOf(stream).toEqualTypeOf<ReadableStream<Uint8Array> | null>();
  const deleted = await client.DELETE("/workflow/{workflowId}", {
    params: { path: { workflowId: "w" } },
  });
  expectTypeOf(deleted).toEqualTypeOf<undefined>();
  const uploaded = await client.POST("/datasets/{datasetId}/upload", {
    params: { path: { datasetId: "d" }, query: { header: true } },
    body: { file: new Blob(["a,b\n"]) },
  });
  expectTypeOf(uploaded).toEqualTypeOf<Schemas["UploadDatasetVersionResponse"]>();

  // raw adds the Response; request() is untyped.
  const { data, response } = await client.raw.GET("/user-info");
  expectTypeOf(data).toEqualTypeOf<Schemas["DescribeUserResponse"]>();
  expectTypeOf(response).toEqualTypeOf<Response>();
  expectTypeOf(await client.request("GET", "/anything")).toEqualTypeOf<unknown>();

  // paginate(): list paths only; items typed from the list's array; paging params are its own.
  // A family's listed items have their ids (the client checks them: an answer without one fails).
  for await (const item of client.paginate("/workflow", { limit: 5 })) {
    expectTypeOf(item).toExtend<Readable<Schemas["ListWorkflowsResponse.ListWorkflowsElement"]>>();
    expectTypeOf(item.workflow.id).toEqualTypeOf<string>();
    expectTypeOf(item.workflow.runName).toEqualTypeOf<string | null | undefined>();
  }
  const { workflows } = await client.GET("/workflow");
  expectTypeOf(workflows?.[0]?.workflow.id).toEqualTypeOf<string | undefined>();
  for await (const pipeline of client.paginate("/pipelines")) {
    expectTypeOf(pipeline.pipelineId).toEqualTypeOf<number>();
  }
  for await (const page of client
    .paginate("/workflow/{workflowId}/tasks", {
      params: { path: { workflowId: "w" } },
    })
    .pages()) {
    expectTypeOf(page.items).toEqualTypeOf<Readable<Schemas["DescribeTaskResponse"]>[]>();
  }
  // @ts-expect-error /service-info is not a list
  client.paginate("/service-info");
  // The type-check's message says why, and what to call instead.
  expectTypeOf<
    Parameters<typeof client.paginate<"/pipeline-secrets">>[0]
  >().toEqualTypeOf<'/pipeline-secrets does not page (its operation takes no max/offset): read it whole with client.GET("/pipeline-secrets")'>();
  // @ts-expect-error pageSize is a number
  client.paginate("/pipelines", { pageSize: "100" });
  // @ts-expect-error a list under a path parameter needs it
  client.paginate("/workflow/{workflowId}/tasks");
  client.paginate("/workflow");
}
