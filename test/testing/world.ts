import { operations, type OperationInfo } from "../../generated/operations.js";
import { loadDocument, requestBody } from "../../src/openapi/operations-document.js";
import { answerShape, sampledComponent } from "../../src/testing/answers.js";
import type { Emulator } from "../../src/testing/index.js";
import { collectionsOf, shapeOf } from "../../src/testing/resource-shapes.js";
import { routesKeptByRule, stateRoutes } from "../../src/testing/routes/index.js";
import { sampleSchema } from "../../src/testing/sample.js";

/** Ids for a stateful operation's path, a body it accepts, and the query it needs. */
export interface World {
  path: Record<string, unknown>;
  body?: unknown;
  query?: Record<string, unknown>;
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
  state.members.add({ org: org.id, userName: `new${n}-member` });
  state.members.add({ org: org.id, userName: `guest${n}`, role: "collaborator" });
  const participant = state.participants.add({
    workspace: workspace.id,
    member: member.userName,
    role: "launch",
  });
  const credentials = state.credentials.add({ name: `keys${n}` });
  const env = state.computeEnvs.add({ name: `ce${n}`, credentialsId: credentials.id });
  const label = state.labels.add({ name: `label${n}` });
  const pipeline = state.pipelines.add({ name: `pipeline${n}`, launch: { computeEnvId: env.id } });
  const secret = state.secrets.add({ name: `secret${n}` });
  const dataset = state.datasets.add({
    name: `dataset${n}`,
    versions: [{ fileName: "samples.csv", content: "a,b\n1,2\n" }],
  });
  const dataLink = state.dataLinks.add({
    resourceRef: `s3://bucket${n}`,
    credentialsId: credentials.id,
    objects: { "reads/a.fastq": "@r1\nACGT\n+\nIIII\n", "README.txt": "hello\n" },
  });
  const studio = state.studios.add({
    name: `studio${n}`,
    computeEnvId: env.id,
    labelIds: [label.id],
    status: "running",
    lastStarted: "2024-01-01T00:00:00Z",
    isPrivate: true,
    configuration: {
      cpu: 2,
      memory: 8192,
      gpu: 0,
      mountData: [dataLink.id],
      condaEnvironment: null,
    },
  });
  const run = state.runs.add({ status: "SUCCEEDED", launch: { computeEnvId: env.id } });
  const path = {
    orgId: org.id,
    workspaceId: workspace.id,
    memberId: member.id,
    teamId: team.id,
    participantId: participant.id,
    userId: state.user.id,
    credentialsId: credentials.id,
    computeEnvId: env.id,
    labelId: label.id,
    pipelineId: pipeline.id,
    versionId: pipeline.versions[0]!.id,
    secretId: secret.id,
    datasetId: dataset.id,
    version: "1",
    fileName: "samples.csv",
    sessionId: studio.id,
    dataLinkId: dataLink.id,
    path: "reads",
    filePath: "README.txt",
    workflowId: run.id,
    launchId: run.launchId,
    taskId: run.tasks[0]!.taskId,
  };
  const bodies: Record<string, unknown> = {
    CreateOrganization: { organization: { name: `neworg${n}`, fullName: "New" } },
    CreateWorkspace: {
      workspace: { name: `newws${n}`, fullName: "New", visibility: "PRIVATE" },
    },
    CreateOrganizationMember: { user: `new${n}@example.com` },
    CreateOrganizationTeam: { team: { name: `newteam${n}` } },
    CreateOrganizationTeamMember: { userNameOrEmail: `NEW${n}-member@example.com` },
    CreateWorkspaceParticipant: { teamId: team.id },
    UpdateWorkspaceParticipantRole: { role: "maintain" },
    UpdateOrganizationMemberRole: { role: "collaborator" },
    UpdateOrganizationTeam: { description: "changed" },
    UpdateOrganization: { description: "changed" },
    UpdateWorkspace: { description: "changed" },
    UpdateComputeEnv: { description: "changed" },
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
    CreateDataStudio: { name: `new${n}`, computeEnvId: env.id },
    StartDataStudio: {},
    UpdateDataStudio: { description: "changed" },
    CreateCustomDataLink: { name: `new${n}`, resourceRef: `s3://new${n}`, provider: "aws" },
    ApplyLabelsToWorkflows: { workflowIds: [run.id], labelIds: [label.id] },
  };
  const queries: Record<string, Record<string, unknown>> = {
    ValidatePipelineVersionName: { name: `version${n}` },
  };
  const kept = keptByRule(emulator, n, path);
  return {
    path: { ...path, ...kept.path },
    body: bodies[operationId] ?? kept.bodies[operationId],
    query: queries[operationId],
  };
}

const doc = loadDocument();
const collections = collectionsOf(doc, operations);
const shapes = Object.values(operations).map((info) => ({
  info,
  shape: shapeOf(info, collections),
}));
/** The collections kept by rule, parents before their sub-collections. */
const ruled = [...collections.values()]
  .filter((c) =>
    shapes.some(
      ({ info, shape }) => shape?.collection === c && info.operationId in routesKeptByRule,
    ),
  )
  .sort((a, b) => a.template.length - b.template.length);

/**
 * One item in every collection kept by rule, as the service would hold it (every property of
 * its answer's schema, and of its create request), and bodies for their creates, updates and
 * actions, with names of their own so that a create does not clash.
 */
function keptByRule(
  emulator: Emulator,
  n: number,
  known: Record<string, unknown>,
): { path: Record<string, unknown>; bodies: Record<string, unknown> } {
  const path: Record<string, unknown> = { ...known };
  const bodies: Record<string, unknown> = {};
  for (const collection of ruled) {
    const ops = shapes
      .filter(({ shape }) => shape?.collection === collection)
      .map(({ info }) => info);
    const create = ops.find((info) => shapeOf(info, collections)!.kind === "create");
    // Every schema its operations answer it with (a list's entry may be smaller than a describe's).
    const fields = Object.assign(
      { ...(create && bodyOf(create, false)) },
      ...ops.flatMap((info) => {
        const schema = itemSchemaOf(info);
        return schema ? [sampledComponent(doc, schema, false)] : [];
      }),
    ) as Record<string, unknown>;
    const concrete = collection.template.replace(/\{(\w+)\}/g, (_, name: string) =>
      String(path[name]),
    );
    // Its id is the store's (a sampled one would be the same in every world), its workspace
    // the personal one the requests name.
    const { id: _, [collection.itemParam]: __, workspaceId: ___, ...own } = fields;
    // A launch an item carries (a pipeline action's) uses this world's compute env, and no
    // label or Nextflow version it does not have, so that it launches.
    if (typeof own.launch === "object" && own.launch !== null) {
      const {
        labelIds: _l,
        nextflowVersion: _v,
        ...launch
      } = own.launch as object & {
        labelIds?: unknown;
        nextflowVersion?: unknown;
      };
      own.launch = { ...launch, computeEnvId: known.computeEnvId };
    }
    const item = emulator.state.resources.add(concrete, { ...own, name: `item${n}` });
    path[collection.itemParam] = item.id;
    for (const info of ops) {
      const body = bodyOf(info, true);
      if (body !== undefined) bodies[info.operationId] = { ...body, name: `new${n}` };
    }
  }
  return { path, bodies };
}

function itemSchemaOf(info: OperationInfo): string | undefined {
  const shape = answerShape(doc, info);
  return shape?.list?.schema ?? shape?.wrapper?.schema;
}

function bodyOf(info: OperationInfo, minimal: boolean): Record<string, unknown> | undefined {
  const schema = requestBody(doc, info)?.content["application/json"];
  return schema
    ? (sampleSchema(doc, schema, { direction: "request", minimal }) as Record<string, unknown>)
    : undefined;
}
