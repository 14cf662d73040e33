import { ConfigurationError } from "../../errors/configuration-error.js";
import { ComputeEnvStore, type ComputeEnvInit } from "./compute-envs.js";
import { CredentialsStore, type CredentialsInit } from "./credentials.js";
import { DatasetStore, type DatasetInit } from "./datasets.js";
import { LabelStore, type LabelInit } from "./labels.js";
import {
  MemberStore,
  OrganizationStore,
  WorkspaceStore,
  type MemberInit,
  type Organization,
  type OrganizationInit,
  type User,
  type Workspace,
  type WorkspaceInit,
} from "./organizations.js";
import {
  ParticipantStore,
  TeamStore,
  type ParticipantInit,
  type TeamInit,
} from "./participants.js";
import { PipelineStore, type PipelineInit } from "./pipelines.js";
import { checkEnding, checkFigures, RunStore, type RunInit } from "./runs.js";
import type { WorkspaceRef } from "./scoped.js";
import { ResourceStore, type ResourceInit } from "./resources.js";
import { SecretStore, type SecretInit } from "./secrets.js";
import { StudioStore, type StudioInit } from "./studios.js";
import { DataLinkStore, type DataLinkInit } from "./data-links.js";
import { operations } from "../../../generated/operations.js";
import { loadDocument } from "../../openapi/operations-document.js";
import { collectionAt, collectionsOf, type Collection } from "../resource-shapes.js";
import { timestamp } from "./store.js";
import { NextflowCatalog, type NextflowCatalogInit } from "./nextflow.js";
import { checkKeys, SEED_ITEMS, shape } from "./seed-keys.js";

/**
 * Everything an emulator starts with, added in this order (so a pipeline may name a compute
 * env seeded above it). Workspaces are named by id or "org/workspace"; a workspace or
 * organization a seed names but does not declare is created.
 */
export interface Seed {
  user?: Partial<Omit<User, "dateCreated">> & { dateCreated?: string | Date };
  organizations?: OrganizationInit[];
  workspaces?: WorkspaceInit[];
  members?: MemberInit[];
  /** Teams of an organization's members. */
  teams?: TeamInit[];
  /** Members and teams with their role in a workspace (owner, admin, maintain, launch, connect, view). */
  participants?: ParticipantInit[];
  labels?: LabelInit[];
  credentials?: CredentialsInit[];
  computeEnvs?: ComputeEnvInit[];
  pipelines?: PipelineInit[];
  secrets?: SecretInit[];
  datasets?: DatasetInit[];
  runs?: RunInit[];
  /** Buckets with the objects under them, after credentials (a link names its own). */
  dataLinks?: DataLinkInit[];
  /** Data Studios, after compute envs (a studio names its compute env by id). */
  studios?: StudioInit[];
  /**
   * Items of the collections kept by rule, by collection path: `{ "/actions": [{ "name":
   * "nightly", "workspaceId": 42 }] }`, or a sub-collection's (`/studios/<id>/checkpoints`).
   */
  resources?: Record<string, ResourceInit[]>;
  /** The Nextflow version catalog (`GET /platform/versions`); default three versions, no minimum. */
  nextflow?: NextflowCatalogInit;
}

/** The organization that holds workspaces a test names only by id. */
const DEFAULT_ORG = "emulated-org";

/** The state of one emulator: what its API answers from, and what tests seed and inspect. */
export class EmulatorState {
  readonly user: User;
  readonly organizations: OrganizationStore;
  readonly workspaces: WorkspaceStore;
  readonly members: MemberStore;
  readonly teams: TeamStore;
  readonly participants: ParticipantStore;
  readonly labels: LabelStore;
  readonly credentials: CredentialsStore;
  readonly computeEnvs: ComputeEnvStore;
  readonly pipelines: PipelineStore;
  readonly secrets: SecretStore;
  readonly datasets: DatasetStore;
  readonly runs: RunStore;
  readonly studios: StudioStore;
  readonly dataLinks: DataLinkStore;
  /** Items of the collections kept by rule, by collection path ("/actions"). */
  readonly resources: ResourceStore;
  readonly nextflow: NextflowCatalog;

  constructor(seed: Seed = {}) {
    checkSeed(seed);
    this.user = {
      id: 1,
      userName: "emulated-user",
      email: "emulated-user@example.com",
      firstName: "Emulated",
      lastName: "User",
      ...seed.user,
      dateCreated: timestamp(seed.user?.dateCreated),
    };
    const orgOf = (ref: string | number) => this.#organization(ref);
    // The user owns every organization; members added later join it.
    this.organizations = new OrganizationStore((org) =>
      this.members.add({
        org: org.id,
        userId: this.user.id,
        userName: this.user.userName,
        email: this.user.email,
        firstName: this.user.firstName,
        lastName: this.user.lastName,
        role: "owner",
        dateCreated: org.dateCreated,
      }),
    );
    this.workspaces = new WorkspaceStore(orgOf);
    this.members = new MemberStore(orgOf);
    const lookup = {
      org: orgOf,
      workspace: (ref: number | string) => {
        const found = this.findWorkspace(ref);
        if (!found) throw new ConfigurationError(`No workspace ${ref}`);
        return found;
      },
      members: (orgId: number) => this.members.inOrg(orgId),
    };
    this.teams = new TeamStore(lookup);
    this.participants = new ParticipantStore(lookup, this.teams);
    const resolve = (ref: WorkspaceRef | undefined) => this.#seededWorkspace(ref);
    this.labels = new LabelStore(resolve);
    this.credentials = new CredentialsStore(resolve);
    this.computeEnvs = new ComputeEnvStore(resolve);
    this.pipelines = new PipelineStore(resolve);
    this.secrets = new SecretStore(resolve);
    this.datasets = new DatasetStore(resolve);
    this.runs = new RunStore(resolve);
    this.studios = new StudioStore(resolve);
    this.dataLinks = new DataLinkStore(resolve);
    this.resources = new ResourceStore(
      (path) => collectionAt(path, schemaCollections())?.collection,
      resolve,
    );
    this.nextflow = new NextflowCatalog(seed.nextflow);
    this.#apply(seed);
  }

  /**
   * The workspace a request names, or undefined when it names none or one that does not
   * exist (the caller answers 403). Requests never create workspaces.
   */
  findWorkspace(ref: WorkspaceRef): Workspace | undefined {
    if (typeof ref === "number" || /^\d+$/.test(ref)) return this.workspaces.get(Number(ref));
    const [orgName, name] = splitRef(ref);
    const org = this.organizations.byName(orgName, undefined);
    return org && this.workspaces.inOrg(org.id).find((w) => w.name === name);
  }

  organizationOf(workspace: Workspace): Organization {
    return this.organizations.get(workspace.orgId)!;
  }

  #organization(ref: string | number): Organization {
    const org =
      typeof ref === "number"
        ? this.organizations.get(ref)
        : this.organizations.byName(ref, undefined);
    if (org) return org;
    if (typeof ref === "number") throw new ConfigurationError(`No organization ${ref}`);
    return this.organizations.add({ name: ref });
  }

  /** A seeded entity's workspace, created (with its organization) when it does not exist. */
  #seededWorkspace(ref: WorkspaceRef | undefined): number | undefined {
    if (ref === undefined) return undefined;
    const found = this.findWorkspace(ref);
    if (found) return found.id;
    if (typeof ref === "number" || /^\d+$/.test(ref)) {
      return this.workspaces.add({ id: Number(ref), org: DEFAULT_ORG, name: `workspace-${ref}` })
        .id;
    }
    const [org, name] = splitRef(ref);
    return this.workspaces.add({ org, name }).id;
  }

  #apply(seed: Seed): void {
    for (const init of seed.organizations ?? []) this.organizations.add(init);
    for (const init of seed.workspaces ?? []) this.workspaces.add(init);
    for (const init of seed.members ?? []) this.members.add(init);
    for (const init of seed.teams ?? []) this.teams.add(init);
    for (const init of seed.participants ?? []) this.participants.add(init);
    for (const init of seed.labels ?? []) this.labels.add(init);
    for (const init of seed.credentials ?? []) this.credentials.add(init);
    for (const init of seed.computeEnvs ?? []) this.computeEnvs.add(init);
    for (const init of seed.pipelines ?? []) this.pipelines.add(init);
    for (const init of seed.secrets ?? []) this.secrets.add(init);
    for (const init of seed.datasets ?? []) this.datasets.add(init);
    for (const init of seed.runs ?? []) this.runs.add(init);
    for (const init of seed.dataLinks ?? []) this.dataLinks.add(init);
    for (const init of seed.studios ?? []) this.studios.add(init);
    for (const [path, inits] of Object.entries(seed.resources ?? {})) {
      for (const init of inits) this.resources.add(path, init);
    }
  }
}

const SEED_LISTS = [
  "organizations",
  "workspaces",
  "members",
  "teams",
  "participants",
  "labels",
  "credentials",
  "computeEnvs",
  "pipelines",
  "secrets",
  "datasets",
  "runs",
  "dataLinks",
  "studios",
] as const;

/** A seed read from a file may be any JSON: its shape is checked before anything is added. */
function checkSeed(seed: unknown): asserts seed is Seed {
  const isObject = (value: unknown) =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  if (!isObject(seed)) {
    throw new Error(
      `The seed must be an object of lists (${SEED_LISTS.join(", ")}) and a user, got ${seed === null ? "null" : Array.isArray(seed) ? "an array" : typeof seed}.`,
    );
  }
  const { user } = seed as Seed;
  if (user !== undefined && !isObject(user)) throw new Error("The seed's user must be an object.");
  for (const list of SEED_LISTS) {
    const items = (seed as Seed)[list];
    if (items === undefined) continue;
    if (!Array.isArray(items) || !items.every(isObject)) {
      throw new Error(`The seed's ${list} must be a list of objects.`);
    }
  }
  const { resources } = seed as Seed;
  if (resources !== undefined && !isObject(resources)) {
    throw new Error("The seed's resources must be an object of lists, by collection path.");
  }
  checkKeys(seed, SEED_SHAPE);
  // A pipeline's ending is used at its first launch: a mistake in it is told now.
  for (const pipeline of (seed as Seed).pipelines ?? []) {
    checkEnding(pipeline.ending);
    for (const version of pipeline.versions ?? []) checkEnding(version.ending);
  }
  // Told with the run's place in the seed, before its id exists.
  for (const [i, run] of ((seed as Seed).runs ?? []).entries()) {
    checkFigures(run, `The seed's runs[${i}]${run.runName ? ` (${run.runName})` : ""}`);
  }
}

/** Every key a seed may have, at every level, checked by the compiler against `Seed`. */
const SEED_SHAPE = shape<Seed>(
  {
    user: true,
    ...(Object.fromEntries(SEED_LISTS.map((list) => [list, true])) as Record<
      (typeof SEED_LISTS)[number],
      true
    >),
    resources: true,
    nextflow: true,
  },
  {
    ...SEED_ITEMS,
    user: shape<NonNullable<Seed["user"]>>({
      id: true,
      userName: true,
      email: true,
      firstName: true,
      lastName: true,
      dateCreated: true,
    }),
  },
);

let collections: Map<string, Collection> | undefined;

/** The schema's collections, found once per process. */
function schemaCollections(): Map<string, Collection> {
  return (collections ??= collectionsOf(loadDocument(), operations));
}

function splitRef(ref: string): [string, string] {
  const match = /^([^/]+)\/([^/]+)$/.exec(ref);
  if (!match) throw new ConfigurationError(`A workspace is an id or "org/workspace", not "${ref}"`);
  return [match[1]!, match[2]!];
}
