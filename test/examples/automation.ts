import {
  RunFailedError,
  createSeqeraClient,
  followRunLog,
  launchPipeline,
  listRuns,
  listWorkspaces,
  uploadDataset,
  waitForComputeEnv,
  waitForRun,
} from "seqera-api-client";

/** Sets up `workspace` ("org/workspace"), runs a pipeline on a samplesheet, and reports. */
export async function nightly(workspace: string, pipeline: string, samplesheet: string) {
  // TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT; the workspace by name, as TOWER_WORKSPACE_ID takes it.
  const client = createSeqeraClient({ workspaceId: workspace });
  console.log((await listWorkspaces(client)).map((w) => `${w.orgName}/${w.workspaceName}`));

  const { AWS_KEY: accessKey, AWS_SECRET: secretKey } = process.env;
  const keys = { discriminator: "aws", accessKey, secretKey } as const;
  const credentials = { name: "keys", provider: "aws", keys } as const;
  const { credentialsId } = await client.POST("/credentials", { body: { credentials } });
  const config = { discriminator: "aws-batch", region: "eu-west-1", workDir: "s3://b/w" } as const;
  const computeEnv = { name: "aws", platform: "aws-batch", credentialsId, config } as const;
  const { computeEnvId } = await client.POST("/compute-envs", { body: { computeEnv } });
  await waitForComputeEnv(client, computeEnvId, { maxWaitMs: 15 * 60_000 });

  // The pipeline as saved in the Launchpad, on the samplesheet (a dataset now), another genome.
  const { url } = await uploadDataset(client, { name: "samples", file: samplesheet });
  const params = { input: url, genome: "GRCm39" };
  const { workflowId } = await launchPipeline(client, pipeline, { computeEnv: "aws", params });
  try {
    await waitForRun(client, workflowId, { maxWaitMs: 6 * 3600_000 });
  } catch (error) {
    if (!(error instanceof RunFailedError)) throw error; // a WaitTimeoutError, a 403...
    for (const task of error.failedTasks) console.log(`${task.name}: ${task.errorMessage}`);
  }
  const path = { workflowId };
  const tasks = client.paginate("/workflow/{workflowId}/tasks", { params: { path } });
  for await (const { task } of tasks) console.log(task?.name, task?.status);
  for await (const line of followRunLog(client, workflowId)) console.log(line);

  const failed: string[] = [];
  const after = new Date(Date.now() - 7 * 86_400_000); // last week
  for await (const run of listRuns(client, { status: "FAILED", after })) failed.push(run.runName!);
  return { workflowId, failed };
}
