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
  /** The field of a list item that holds the resource, when an item wraps it with more. */
  item?: string;
  /** Where the create operation's answer holds the new resource's id: "pipeline.pipelineId". */
  created?: string;
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
    created: "organization.orgId",
    name: "name",
    fields: ["name", "fullName", "description", "location", "website"],
    updatable: ["name", "fullName", "description", "location", "website"],
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
    fields: ["name", "description"],
    updatable: ["name", "description"],
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
    created: "member.memberId",
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
    created: "workspace.id",
    name: "name",
    fields: ["name", "fullName", "description", "visibility"],
    updatable: ["name", "fullName", "description", "visibility"],
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
    fields: ["name", "platform", "description", "credentialsId", "config"],
    updatable: ["name", "description", "credentialsId"],
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
    fields: ["name", "description", "icon", "launch"],
    updatable: ["name", "description", "icon", "launch"],
    shared: true,
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
    created: "studio.sessionId",
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
    created: "actionId",
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
    item: "workflow",
    created: "workflowId",
    name: "runName",
    fields: ["pipeline", "computeEnvId", "workDir", "revision", "paramsText", "configProfiles"],
  },
} as const satisfies Record<string, Family>;

/** A family's key, as seqerakit names the kinds of a file: "compute-envs", "data-links"… */
export type FamilyName = keyof typeof FAMILIES;
