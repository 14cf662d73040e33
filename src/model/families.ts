/**
 * The resource model: one description per resource family of the API, from which the library's
 * finders (automation/names.ts), the CLI's resource words and the emulator's named families are
 * derived. A family says what the operation table cannot: its scope, which operation plays which
 * role, where its id and name are, and the fields a user sets. What the table does say (paths,
 * paging, whether the service searches by name, whether it takes `workspaceId`) is read from it:
 * see `derive.ts`. Adding a family, or a field to compare, is one edit here.
 */
import type { Family } from "./family.js";

/**
 * The keys of a saved launch (tw's launch options), which pipelines and actions both hold under
 * `launch`.
 */
const LAUNCH_KEYS = {
  params: "@params",
  "params-file": "@params-file",
  "work-dir": "launch.workDir",
  revision: "launch.revision",
  profile: "launch.configProfiles[]",
  config: "<launch.configText",
  "pre-run": "<launch.preRunScript",
  "post-run": "<launch.postRunScript",
  "pull-latest": "launch.pullLatest",
  "stub-run": "launch.stubRun",
  "main-script": "launch.mainScript",
  "entry-name": "launch.entryName",
  "schema-name": "launch.schemaName",
  "user-secrets": "launch.userSecrets[]",
  "workspace-secrets": "launch.workspaceSecrets[]",
} as const;

/** tw's `studios add --mount-data-resource-refs` (`--mount-data-uris` before): data links by URI. */
const MOUNTED_BY_URI = {
  family: "data-links",
  field: "configuration.mountData",
  list: true,
  by: "resourceRef",
} as const;

export const FAMILIES = {
  organizations: {
    noun: "organization",
    scope: "user",
    operations: {
      list: "GET /orgs",
      describe: "GET /orgs/{orgId}",
      create: "POST /orgs",
      update: "PUT /orgs/{orgId}",
      delete: "DELETE /orgs/{orgId}",
    },
    items: "organizations",
    id: "orgId",
    created: "organization.orgId",
    name: "name",
    fields: ["name", "fullName", "description", "location", "website"],
    updatable: ["name", "fullName", "description", "location", "website"],
    file: {
      keys: {
        "full-name": "fullName",
        description: "description",
        location: "location",
        website: "website",
      },
      create: "organization",
    },
  },
  // Before teams: a team's members are the organization's.
  members: {
    noun: "member",
    scope: "organization",
    operations: {
      list: "GET /orgs/{orgId}/members",
      create: "PUT /orgs/{orgId}/members/add",
      delete: "DELETE /orgs/{orgId}/members/{memberId}",
    },
    id: "memberId",
    created: "member.memberId",
    name: "email",
    fields: ["email", "role"],
    // seqerakit names a member by `user` (a user name or an e-mail), not `name`.
    file: { keys: { user: "@name" } },
  },
  teams: {
    noun: "team",
    scope: "organization",
    operations: {
      list: "GET /orgs/{orgId}/teams",
      describe: "GET /orgs/{orgId}/teams/{teamId}",
      create: "POST /orgs/{orgId}/teams",
      update: "PUT /orgs/{orgId}/teams/{teamId}",
      delete: "DELETE /orgs/{orgId}/teams/{teamId}",
    },
    id: "teamId",
    created: "team.teamId",
    name: "name",
    // `members`: the team's users, added by the membership helper rather than sent with it.
    fields: ["name", "description", "members"],
    updatable: ["name", "description", "members"],
    file: { keys: { description: "description", members: "@members" }, create: "team" },
  },
  workspaces: {
    noun: "workspace",
    scope: "organization",
    operations: {
      list: "GET /orgs/{orgId}/workspaces",
      describe: "GET /orgs/{orgId}/workspaces/{workspaceId}",
      create: "POST /orgs/{orgId}/workspaces",
      update: "PUT /orgs/{orgId}/workspaces/{workspaceId}",
      delete: "DELETE /orgs/{orgId}/workspaces/{workspaceId}",
    },
    items: "workspaces",
    id: "id",
    created: "workspace.id",
    name: "name",
    fields: ["name", "fullName", "description", "visibility"],
    updatable: ["name", "fullName", "description", "visibility"],
    file: {
      keys: { "full-name": "fullName", description: "description", visibility: "visibility" },
      create: "workspace",
      defaults: { visibility: "PRIVATE" },
    },
  },
  participants: {
    noun: "participant",
    scope: "workspace",
    operations: {
      list: "GET /orgs/{orgId}/workspaces/{workspaceId}/participants",
      create: "PUT /orgs/{orgId}/workspaces/{workspaceId}/participants/add",
      update: "PUT /orgs/{orgId}/workspaces/{workspaceId}/participants/{participantId}/role",
      delete: "DELETE /orgs/{orgId}/workspaces/{workspaceId}/participants/{participantId}",
    },
    id: "participantId",
    created: "participant.participantId",
    name: "email",
    fields: ["email", "teamName", "wspRole"],
    updatable: ["wspRole"],
    // `name` is a user's (type MEMBER) or a team's (type TEAM); added, then given its role.
    file: { keys: { type: "type", role: "wspRole" } },
  },
  labels: {
    noun: "label",
    scope: "workspace",
    operations: {
      list: "GET /labels",
      create: "POST /labels",
      update: "PUT /labels/{labelId}",
      delete: "DELETE /labels/{labelId}",
    },
    id: "id",
    created: "id",
    name: "name",
    fields: ["name", "value", "resource"],
    updatable: ["value"],
    file: { keys: { value: "value" }, identity: { key: "value", sets: { resource: true } } },
  },
  credentials: {
    noun: "credentials",
    scope: "workspace",
    operations: {
      list: "GET /credentials",
      describe: "GET /credentials/{credentialsId}",
      create: "POST /credentials",
      update: "PUT /credentials/{credentialsId}",
      delete: "DELETE /credentials/{credentialsId}",
    },
    items: "credentials",
    id: "id",
    created: "credentialsId",
    name: "name",
    fields: ["name", "provider", "description", "baseUrl", "keys"],
    updatable: ["description", "baseUrl", "keys"],
    file: {
      keys: {
        type: "provider",
        description: "description",
        "base-url": "baseUrl",
        "access-key": "keys.accessKey",
        "secret-key": "keys.secretKey",
        "assume-role-arn": "keys.assumeRoleArn",
        username: "keys.username",
        password: "keys.password",
        token: "keys.token",
        registry: "keys.registry",
        "batch-name": "keys.batchName",
        "batch-key": "keys.batchKey",
        "storage-name": "keys.storageName",
        "storage-key": "keys.storageKey",
        key: "@key",
      },
      create: "credentials",
      update: "credentials",
      secret: ["keys"],
    },
  },
  secrets: {
    noun: "secret",
    scope: "workspace",
    operations: {
      list: "GET /pipeline-secrets",
      describe: "GET /pipeline-secrets/{secretId}",
      create: "POST /pipeline-secrets",
      update: "PUT /pipeline-secrets/{secretId}",
      delete: "DELETE /pipeline-secrets/{secretId}",
    },
    items: "pipelineSecrets",
    id: "id",
    created: "secretId",
    name: "name",
    fields: ["name", "value"],
    updatable: ["value"],
    file: { keys: { value: "value" }, secret: ["value"] },
  },
  "compute-envs": {
    noun: "compute environment",
    scope: "workspace",
    operations: {
      list: "GET /compute-envs",
      describe: "GET /compute-envs/{computeEnvId}",
      create: "POST /compute-envs",
      update: "PUT /compute-envs/{computeEnvId}",
      delete: "DELETE /compute-envs/{computeEnvId}",
    },
    items: "computeEnvs",
    id: "id",
    created: "computeEnvId",
    name: "name",
    fields: ["name", "platform", "description", "credentialsId", "config", "labels"],
    updatable: ["name", "description", "credentialsId"],
    file: {
      keys: {
        type: "@type",
        "config-mode": "@config-mode",
        "file-path": "@body-file",
        wait: "@wait",
        description: "description",
        "work-dir": "config.workDir",
        region: "config.region",
        "pre-run": "<config.preRunScript",
        "post-run": "<config.postRunScript",
        "nextflow-config": "<config.nextflowConfig",
        "fusion-v2": "config.fusion2Enabled",
        wave: "config.waveEnabled",
        "fast-storage": "config.nvnmeStorageEnabled",
        "batch-execution-role": "config.executionRole",
        "head-job-role": "config.headJobRole",
        "compute-job-role": "config.computeJobRole",
        "head-queue": "config.headQueue",
        "compute-queue": "config.computeQueue",
        "cli-path": "config.cliPath",
        fusionSnapshots: "config.fusionSnapshots",
        snapshots: "config.fusionSnapshots",
        "provisioning-model": "config.forge.type",
        "max-cpus": "config.forge.maxCpus",
        "min-cpus": "config.forge.minCpus",
        "instance-types": "config.forge.instanceTypes[]",
        "vpc-id": "config.forge.vpcId",
        subnets: "config.forge.subnets[]",
        "security-groups": "config.forge.securityGroups[]",
        "allow-buckets": "config.forge.allowBuckets[]",
        fargate: "config.forge.fargateHeadEnabled",
        gpu: "config.forge.gpuEnabled",
        "no-ebs-auto-scale": "!config.forge.ebsAutoScale",
      },
      refs: { credentials: { family: "credentials", field: "credentialsId" } },
      // tw's `compute-envs add --labels` (Label.ResourceLabelsConverter: "Label value is
      // required") sends CreateComputeEnvRequest.labelIds; no operation changes them after,
      // so a change replaces it.
      labels: { resource: true },
      create: "computeEnv",
    },
  },
  pipelines: {
    noun: "pipeline",
    scope: "workspace",
    operations: {
      list: "GET /pipelines",
      describe: "GET /pipelines/{pipelineId}",
      create: "POST /pipelines",
      update: "PUT /pipelines/{pipelineId}",
      delete: "DELETE /pipelines/{pipelineId}",
    },
    id: "pipelineId",
    created: "pipeline.pipelineId",
    name: "name",
    fields: ["name", "description", "icon", "launch", "labels"],
    // A changed launch is a new draft version, not the default one launches use: replaced.
    updatable: ["name", "description", "icon", "labels"],
    shared: true,
    file: {
      keys: {
        url: "launch.pipeline",
        description: "description",
        "file-path": "@body-file",
        ...LAUNCH_KEYS,
      },
      refs: { "compute-env": { family: "compute-envs", field: "launch.computeEnvId" } },
      // tw's `pipelines add --labels` (LabelsOptionalOptions, split on ","): "name" or
      // "name=value", those missing created (LabelsFinder's CREATE); PUT /pipelines/{id}
      // changes them (its labelIds), so a change is in place.
      labels: {},
      reads: { launch: "GET /pipelines/{pipelineId}/launch" },
      answers: { "launch.computeEnvId": "launch.computeEnv.id" },
    },
  },
  datasets: {
    noun: "dataset",
    scope: "workspace",
    operations: {
      list: "GET /datasets",
      create: "POST /datasets",
      update: "PUT /datasets/{datasetId}",
      delete: "DELETE /datasets/{datasetId}",
    },
    id: "id",
    created: "dataset.id",
    name: "name",
    fields: ["name", "description"],
    updatable: ["name", "description"],
    shared: true,
    file: {
      keys: { description: "description", "file-path": "@upload", header: "@header" },
    },
  },
  "data-links": {
    noun: "data link",
    scope: "workspace",
    operations: {
      list: "GET /data-links",
      describe: "GET /data-links/{dataLinkId}",
      create: "POST /data-links",
      update: "PUT /data-links/{dataLinkId}",
      delete: "DELETE /data-links/{dataLinkId}",
    },
    id: "id",
    created: "id",
    name: "name",
    fields: [
      "name",
      "description",
      "type",
      "provider",
      "resourceRef",
      "publicAccessible",
      "credentialsId",
    ],
    updatable: ["name", "description", "credentialsId"],
    file: {
      keys: { uri: "resourceRef", provider: "provider", description: "description" },
      required: ["uri", "provider"],
      refs: { credentials: { family: "credentials", field: "credentialsId" } },
      // The answer lists the link's credentials; the request names them by id.
      answers: { credentialsId: "credentials.0.id" },
      defaults: { type: "bucket" },
    },
  },
  studios: {
    noun: "studio",
    scope: "workspace",
    operations: {
      list: "GET /studios",
      describe: "GET /studios/{sessionId}",
      create: "POST /studios",
      delete: "DELETE /studios/{sessionId}",
    },
    id: "sessionId",
    created: "studio.sessionId",
    name: "name",
    fields: [
      "name",
      "description",
      "dataStudioToolUrl",
      "computeEnvId",
      "configuration",
      "isPrivate",
      "labels",
    ],
    file: {
      keys: {
        template: "dataStudioToolUrl",
        "custom-template": "dataStudioToolUrl",
        description: "description",
        cpu: "configuration.cpu",
        memory: "configuration.memory",
        gpu: "configuration.gpu",
        lifespan: "configuration.lifespanHours",
        private: "isPrivate",
        // tw's `studios add --auto-start` (default false): `autoStart` of the create's query.
        "auto-start": "?autoStart",
        "conda-env-yml": "<configuration.condaEnvironment",
        // tw's --mount-data-ids: the data links' ids, as `configuration.mountData` holds them.
        "mount-data-ids": "configuration.mountData[]",
      },
      required: ["compute-env"],
      refs: {
        "compute-env": { family: "compute-envs", field: "computeEnvId" },
        // tw's --mount-data: data links by name, sent by id (DataLinkService.getDataLinkIds).
        "mount-data": { family: "data-links", field: "configuration.mountData", list: true },
        "mount-data-resource-refs": MOUNTED_BY_URI,
        "mount-data-uris": MOUNTED_BY_URI,
      },
      answers: { dataStudioToolUrl: "template.repository", computeEnvId: "computeEnv.id" },
      // tw's StudioResourceLabelsConverter: resource labels only, sent as labelIds.
      labels: { resource: true },
      replaced:
        "PUT /studios/{sessionId} changes a stopped studio only, and the plan does not stop it",
      unsupported: {
        wait: "waiting for a studio's status is not planned yet",
      },
    },
  },
  actions: {
    noun: "action",
    scope: "workspace",
    operations: {
      list: "GET /actions",
      describe: "GET /actions/{actionId}",
      create: "POST /actions",
      update: "PUT /actions/{actionId}",
      delete: "DELETE /actions/{actionId}",
    },
    items: "actions",
    id: "id",
    created: "actionId",
    name: "name",
    fields: ["name", "source", "launch"],
    // Its source (tower, github) is chosen when created: a change replaces it.
    updatable: ["name", "launch"],
    file: {
      keys: { type: "source", pipeline: "launch.pipeline", ...LAUNCH_KEYS },
      required: ["type", "pipeline"],
      refs: { "compute-env": { family: "compute-envs", field: "launch.computeEnvId" } },
      answers: { "launch.computeEnvId": "launch.computeEnv.id" },
    },
  },
  runs: {
    noun: "run",
    scope: "workspace",
    operations: {
      list: "GET /workflow",
      describe: "GET /workflow/{workflowId}",
      create: "POST /workflow/launch",
      delete: "DELETE /workflow/{workflowId}",
    },
    id: "id",
    item: "workflow",
    created: "workflowId",
    name: "runName",
    fields: ["pipeline", "computeEnvId", "workDir", "revision", "paramsText", "configProfiles"],
    // seqerakit's `launch`: a run is launched each time, not kept like the others.
    file: {
      keys: { pipeline: "@pipeline", params: "@params", "params-file": "@params-file" },
      launchSettings: true,
    },
  },
} as const satisfies Record<string, Family>;

/**
 * A family's key, as seqerakit names the kinds of a file: "compute-envs", "data-links"… Their
 * order is the order of dependence (a family needs only those before it): a plan creates in it,
 * and deletes in reverse.
 */
export type FamilyName = keyof typeof FAMILIES;
