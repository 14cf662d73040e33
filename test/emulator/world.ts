import type { Emulator } from "../../src/testing/index.js";
import { stateRoutes } from "../../src/testing/routes/index.js";

/** Ids for a stateful operation's path, and a body it accepts. */
export interface World {
  path: Record<string, unknown>;
  body?: unknown;
}

let worlds = 0;

/**
 * Fresh entities for one call of an operation answered from state (undefined for a sampled
 * one): each call gets its own, so that a delete does not take what a later call needs.
 */
export function worldFor(emulator: Emulator, operationId: string): World | undefined {
  if (!(operationId in stateRoutes)) return undefined;
  const n = ++worlds;
  const { state } = emulator;
  const org = state.organizations.add({ name: `org${n}` });
  const workspace = state.workspaces.add({ org: org.id, name: `ws${n}` });
  const member = state.members.add({ org: org.id, userName: `user${n}` });
  const team = state.teams.add({ org: org.id, name: `team${n}`, members: [member.userName] });
  const credentials = state.credentials.add({ name: `keys${n}` });
  const env = state.computeEnvs.add({ name: `ce${n}`, credentialsId: credentials.id });
  const label = state.labels.add({ name: `label${n}` });
  const pipeline = state.pipelines.add({ name: `pipeline${n}`, launch: { computeEnvId: env.id } });
  const secret = state.secrets.add({ name: `secret${n}` });
  const dataset = state.datasets.add({
    name: `dataset${n}`,
    versions: [{ fileName: "samples.csv", content: "a,b\n1,2\n" }],
  });
  const run = state.runs.add({ status: "SUCCEEDED", launch: { computeEnvId: env.id } });
  const path = {
    orgId: org.id,
    workspaceId: workspace.id,
    memberId: member.id,
    teamId: team.id,
    userId: state.user.id,
    credentialsId: credentials.id,
    computeEnvId: env.id,
    labelId: label.id,
    pipelineId: pipeline.id,
    secretId: secret.id,
    datasetId: dataset.id,
    version: "1",
    fileName: "samples.csv",
    workflowId: run.id,
    taskId: run.tasks[0]!.taskId,
  };
  const bodies: Record<string, unknown> = {
    CreateOrganization: { organization: { name: `neworg${n}`, fullName: "New" } },
    CreateWorkspace: {
      workspace: { name: `newws${n}`, fullName: "New", visibility: "PRIVATE" },
    },
    CreateOrganizationMember: { user: `new${n}@example.com` },
    CreatePipeline: { name: `new${n}`, launch: { pipeline: "https://github.com/nf-core/x" } },
    CreateComputeEnv: {
      computeEnv: {
        name: `new${n}`,
        platform: "aws-batch",
        config: { discriminator: "aws-batch", region: "eu-west-1", workDir: "s3://b/work" },
      },
    },
    CreateLabel: { name: `new${n}` },
    CreateCredentials: { credentials: { name: `new${n}`, provider: "aws" } },
    CreatePipelineSecret: { name: `new${n}`, value: "v" },
    CreateDatasetV2: { name: `new${n}` },
    CreateWorkflowLaunch: {
      launch: { pipeline: "https://github.com/nextflow-io/hello", computeEnvId: env.id },
    },
    ApplyLabelsToWorkflows: { workflowIds: [run.id], labelIds: [label.id] },
  };
  return { path, body: bodies[operationId] };
}
