import { ConfigurationError } from "../../errors/configuration-error.js";
import { nearNames } from "../../core/near-names.js";
import { loadDocument } from "../../openapi/load.js";
import type { ComputeEnvInit } from "./compute-envs.js";
import type { CredentialsInit } from "./credentials.js";
import type { BrowseError, DataLinkInit } from "./data-links.js";
import type { DatasetInit, DatasetUpload } from "./datasets.js";
import type { LabelInit } from "./labels.js";
import type { NextflowCatalogInit } from "./nextflow.js";
import type { MemberInit, OrganizationInit, WorkspaceInit } from "./organizations.js";
import type { ParticipantInit, TeamInit } from "./participants.js";
import type { PipelineVersionInit } from "./pipeline-versions.js";
import type { PipelineInit } from "./pipelines.js";
import { LOAD_FIGURES } from "./run-figures.js";
import type { RunEnding, RunInit, TaskFailure, TaskInit } from "./runs.js";
import type { SecretInit } from "./secrets.js";
import type { StudioInit } from "./studios.js";

/** What a seed may say of one kind of object: its keys, and the shapes of objects within. */
export interface Shape {
  keys: readonly string[];
  /** By key: the shape of the object, or of each object of the list, it holds. */
  within?: Record<string, Shape>;
}

/**
 * Every key of T, as an object literal: the compiler refuses one missing or unknown, so that a
 * field added to a seed's type is added here too.
 */
type Keys<T> = { readonly [K in keyof T]-?: true };

export function shape<T>(keys: Keys<T>, within?: { [K in keyof T]?: Shape }): Shape {
  return { keys: Object.keys(keys), ...(within && { within: within as Record<string, Shape> }) };
}

/**
 * A launch, a run's or a pipeline's saved one, as the launch request sends it: the keys of the
 * schema's WorkflowLaunchRequest (read when a seed is checked; the emulator has loaded it).
 */
const LAUNCH: Shape = {
  get keys() {
    const schema = loadDocument().components.schemas.WorkflowLaunchRequest as {
      properties?: Record<string, unknown>;
    };
    return Object.keys(schema.properties ?? {});
  },
};

const DATED = { dateCreated: true, lastUpdated: true } as const;
const SCOPED = { ...DATED, workspaceId: true } as const;

const FAILURE = shape<TaskFailure>({
  task: true,
  exitStatus: true,
  errorMessage: true,
  stderr: true,
});
const ENDING = shape<RunEnding>(
  { status: true, failures: true, task: true, exitStatus: true, errorMessage: true, stderr: true },
  { failures: FAILURE },
);
const TASK = shape<TaskInit>({
  process: true,
  tag: true,
  status: true,
  exitStatus: true,
  submit: true,
  start: true,
  complete: true,
  errorMessage: true,
  stdout: true,
  stderr: true,
  cpus: true,
  memory: true,
});
const RUN = shape<RunInit>(
  {
    ...SCOPED,
    id: true,
    status: true,
    runName: true,
    launch: true,
    pipelineId: true,
    labelIds: true,
    tasks: true,
    userName: true,
    errorMessage: true,
    exitStatus: true,
    submit: true,
    start: true,
    complete: true,
    sessionId: true,
    commitId: true,
    resume: true,
    ending: true,
    relaunchEnding: true,
    cost: true,
    progress: true,
  },
  {
    launch: LAUNCH,
    tasks: TASK,
    ending: ENDING,
    relaunchEnding: ENDING,
    progress: { keys: LOAD_FIGURES },
  },
);

/** The shapes of what each list of a seed holds, by key, and of its `nextflow` catalog. */
export const SEED_ITEMS: Record<string, Shape> = {
  organizations: shape<OrganizationInit>({
    ...DATED,
    id: true,
    name: true,
    fullName: true,
    description: true,
    location: true,
    website: true,
  }),
  workspaces: shape<WorkspaceInit>({
    ...DATED,
    id: true,
    org: true,
    name: true,
    fullName: true,
    description: true,
    visibility: true,
  }),
  members: shape<MemberInit>({
    ...DATED,
    id: true,
    org: true,
    userName: true,
    email: true,
    firstName: true,
    lastName: true,
    role: true,
    userId: true,
  }),
  teams: shape<TeamInit>({
    ...DATED,
    id: true,
    org: true,
    name: true,
    description: true,
    members: true,
  }),
  participants: shape<ParticipantInit>({
    ...DATED,
    id: true,
    workspace: true,
    member: true,
    team: true,
    role: true,
  }),
  labels: shape<LabelInit>({
    ...SCOPED,
    id: true,
    name: true,
    value: true,
    resource: true,
    isDefault: true,
  }),
  credentials: shape<CredentialsInit>({
    ...SCOPED,
    id: true,
    name: true,
    provider: true,
    description: true,
    keys: true,
  }),
  computeEnvs: shape<ComputeEnvInit>({
    ...SCOPED,
    id: true,
    name: true,
    platform: true,
    status: true,
    primary: true,
    credentialsId: true,
    workDir: true,
    region: true,
    description: true,
    message: true,
    labelIds: true,
    config: true,
  }),
  pipelines: shape<PipelineInit>(
    {
      ...SCOPED,
      id: true,
      name: true,
      description: true,
      repository: true,
      launch: true,
      labelIds: true,
      visibility: true,
      ending: true,
      versions: true,
    },
    {
      launch: LAUNCH,
      ending: ENDING,
      versions: shape<PipelineVersionInit>(
        { ...DATED, id: true, name: true, isDefault: true, launch: true, ending: true },
        { launch: LAUNCH, ending: ENDING },
      ),
    },
  ),
  secrets: shape<SecretInit>({ ...SCOPED, id: true, name: true, value: true }),
  datasets: shape<DatasetInit>(
    { ...SCOPED, id: true, name: true, description: true, versions: true, labelIds: true },
    {
      versions: shape<DatasetUpload>({
        fileName: true,
        content: true,
        mediaType: true,
        hasHeader: true,
      }),
    },
  ),
  runs: RUN,
  dataLinks: shape<DataLinkInit>(
    {
      ...SCOPED,
      id: true,
      name: true,
      resourceRef: true,
      description: true,
      provider: true,
      region: true,
      credentialsId: true,
      publicAccessible: true,
      objects: true,
      credentialsError: true,
      browseError: true,
    },
    { browseError: shape<BrowseError>({ status: true, message: true }) },
  ),
  studios: shape<StudioInit>({
    ...SCOPED,
    id: true,
    name: true,
    description: true,
    status: true,
    computeEnvId: true,
    image: true,
    lastStarted: true,
    isPrivate: true,
    configuration: true,
    labelIds: true,
    stopError: true,
  }),
  nextflow: shape<NextflowCatalogInit>({
    versions: true,
    default: true,
    minVersions: true,
    selectionEnabled: true,
  }),
};

/**
 * Refuses a key the seed's types do not have, wherever it is (a misspelt `cots` would
 * otherwise be dropped without a word), naming it, where it is, and the keys known there.
 */
export function checkKeys(value: unknown, known: Shape, where = ""): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (!known.keys.includes(key)) {
      const near = nearNames(key, known.keys);
      throw new ConfigurationError(
        `${where ? `The seed's ${where}` : "The seed"} has an unknown key "${key}"${near.length > 0 ? ` (did you mean "${near[0]}"?)` : ""}; the keys known there are ${known.keys.join(", ")}.`,
      );
    }
    const within = known.within?.[key];
    if (!within) continue;
    const path = where ? `${where}.${key}` : key;
    if (Array.isArray(inner)) inner.forEach((item, i) => checkKeys(item, within, `${path}[${i}]`));
    else checkKeys(inner, within, path);
  }
}
