/**
 * The resource model: one description per resource family of the API, from which the library's
 * finders (automation/names.ts), the CLI's resource words and the emulator's named families are
 * derived. A family says what the operation table cannot: its scope, which operation plays which
 * role, where its id and name are, and the fields a user sets. What the table does say (paths,
 * paging, whether the service searches by name, whether it takes `workspaceId`) is read from it:
 * see `derive.ts`. Adding a family, or a field to compare, is one edit here.
 */
import type { OperationKey } from "../openapi/require-operation.js";

/** Where a family's resources live: the token's user, an organization, or a workspace. */
export type Scope = "user" | "organization" | "workspace";

/** The operations a family's resources go through, as keys of the generated operation table. */
export interface FamilyOperations {
  list: OperationKey;
  describe?: OperationKey;
  create?: OperationKey;
  update?: OperationKey;
  delete?: OperationKey;
}

export interface Family {
  /** Its noun in messages: "compute environment". */
  noun: string;
  scope: Scope;
  operations: FamilyOperations;
  /** The list answer's array, for a list the table does not page (the table names the others'). */
  items?: string;
  /** The field of an item that holds its id; ids are handed on as text. */
  id: string;
  /** The field of an item that holds its name. */
  name: string;
  /**
   * The fields a user sets (a create request's, by the name seqerakit and tw give them in a
   * file), which a plan compares with what the service answers.
   */
  fields: readonly string[];
  /** Of `fields`, those the update operation changes in place; a change to another replaces. */
  updatable?: readonly string[];
  /** The list operation hides shared resources unless asked (`visibility=all`), as tw asks. */
  shared?: boolean;
  /** How a file in seqerakit's format sets its fields (plan, apply, export); absent: not yet. */
  file?: FileShape;
}

/**
 * A family's entries in seqerakit's YAML: each key (tw's option name) and the request field it
 * sets, as a dotted path. A path ending in `[]` takes a comma-separated list; one starting with
 * `<` takes a file's path and sends its text, with `!` a flag and sends its negation (tw's
 * `--no-…` options); a value starting with `@` is read by the
 * declarative layer itself (`@wait`, `@body-file`, `@params`…). `name`, `workspace`,
 * `on_exists` and `overwrite` go with every kind.
 */
export interface FileShape {
  keys: Readonly<Record<string, string>>;
  /** Keys naming another family's resource of the same workspace; the field gets its id. */
  refs?: Readonly<Record<string, { family: string; field: string }>>;
  /** The create (update) request holds the fields under this key: `{ computeEnv: {...} }`. */
  create?: string;
  update?: string;
  /** Fields the service never answers back (secret values): never compared, shown redacted. */
  secret?: readonly string[];
  /** Fields the describe answer lacks, each read by its own operation (same path parameter). */
  reads?: Readonly<Record<string, OperationKey>>;
  /** What tw sends for a field the service requires and the file may leave out. */
  defaults?: Readonly<Record<string, unknown>>;
  /** seqerakit's keys not read yet, and why: refused as such rather than as unknown. */
  unsupported?: Readonly<Record<string, string>>;
}

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
    name: "name",
    fields: ["name", "fullName", "description", "location", "website"],
    updatable: ["name", "fullName", "description", "location", "website"],
    file: { keys: { "full-name": "fullName", description: "description" }, create: "organization" },
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
    name: "name",
    fields: ["name", "description"],
    updatable: ["name", "description"],
    file: {
      keys: { description: "description" },
      unsupported: { members: "use seqera-api teams add <org>/<team> <user>" },
      create: "team",
    },
  },
  members: {
    noun: "member",
    scope: "organization",
    operations: {
      list: "GET /orgs/{orgId}/members",
      create: "PUT /orgs/{orgId}/members/add",
      delete: "DELETE /orgs/{orgId}/members/{memberId}",
    },
    id: "memberId",
    name: "email",
    fields: ["email", "role"],
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
    name: "email",
    fields: ["email", "teamName", "wspRole"],
    updatable: ["wspRole"],
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
    name: "name",
    fields: ["name", "value", "resource"],
    updatable: ["value"],
    file: { keys: { value: "value" } },
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
        "batch-account": "keys.batchName",
        "batch-key": "keys.batchKey",
        "storage-account": "keys.storageName",
        "storage-key": "keys.storageKey",
      },
      unsupported: { key: "a key file (Google, SSH, Kubernetes) is not read yet" },
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
    name: "name",
    fields: ["name", "platform", "description", "credentialsId", "config"],
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
      unsupported: { labels: "labels on compute environments are not planned yet" },
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
    name: "name",
    fields: ["name", "description", "icon", "launch"],
    updatable: ["name", "description", "icon", "launch"],
    shared: true,
    file: {
      keys: {
        url: "launch.pipeline",
        description: "description",
        "file-path": "@body-file",
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
      },
      refs: { "compute-env": { family: "compute-envs", field: "launch.computeEnvId" } },
      unsupported: { labels: "labels on pipelines are not planned yet" },
      reads: { launch: "GET /pipelines/{pipelineId}/launch" },
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
    name: "name",
    fields: ["name", "description", "type", "provider", "resourceRef", "publicAccessible"],
    updatable: ["name", "description"],
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
    name: "name",
    fields: ["name", "description", "dataStudioToolUrl", "computeEnvId", "configuration"],
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
    name: "name",
    fields: ["name", "source", "launch"],
    updatable: ["name", "launch"],
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
    name: "runName",
    fields: ["pipeline", "computeEnvId", "workDir", "revision", "paramsText", "configProfiles"],
  },
} as const satisfies Record<string, Family>;

/**
 * A family's key, as seqerakit names the kinds of a file: "compute-envs", "data-links"… Their
 * order is the order of dependence (a family needs only those before it): a plan creates in it,
 * and deletes in reverse.
 */
export type FamilyName = keyof typeof FAMILIES;
