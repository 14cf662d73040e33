/**
 * What the resource model says of one family (families.ts holds one per family): its scope,
 * its operations, where its id and name are, the fields a user sets, and how seqerakit's files
 * set them.
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
  /** How a file in seqerakit's format sets its fields (plan, apply, export). */
  file: FileShape;
}

/**
 * A family's entries in seqerakit's YAML: each key (tw's option name) and the request field it
 * sets, as a dotted path. A path ending in `[]` takes a comma-separated list; one starting with
 * `<` takes a file's path and sends its text, with `!` a flag and sends its negation (tw's
 * `--no-…` options), with `?` a query parameter of the create operation (not a field: never
 * compared); a value starting with `@` is read by the
 * declarative layer itself (`@wait`, `@body-file`, `@params`…; `@name` names the entry in place
 * of `name`, `@members` lists a team's members, `@key` reads credentials' key file). `name`, `workspace`,
 * `on_exists` and `overwrite` go with every kind.
 */
export interface FileShape {
  keys: Readonly<Record<string, string>>;
  /**
   * Keys naming another family's resource of the same workspace; the field gets its id. With
   * `list`, a comma-separated list of names, the field a list of their ids; with `by`, the
   * resources are named by that field of theirs instead (a data link by its `resourceRef`).
   */
  refs?: Readonly<Record<string, { family: string; field: string; list?: boolean; by?: string }>>;
  /** The create (update) request holds the fields under this key: `{ computeEnv: {...} }`. */
  create?: string;
  update?: string;
  /** Fields the service never answers back (secret values): never compared, shown redacted. */
  secret?: readonly string[];
  /**
   * Fields the answer holds at another path than the request's (an id in the object it names:
   * `credentialsId` as `credentials.0.id`), read there when the answer lacks them.
   */
  answers?: Readonly<Record<string, string>>;
  /** Fields the describe answer lacks, each read by its own operation (same path parameter). */
  reads?: Readonly<Record<string, OperationKey>>;
  /**
   * A key that is part of the resource's name as its lookup takes it (a resource label is
   * "name=value"): a change to it is another resource. When given, it also sets `sets`.
   */
  identity?: { key: string; sets?: Readonly<Record<string, unknown>> };
  /** What tw sends for a field the service requires and the file may leave out. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Keys an entry must have, as tw requires the options: refused before any request. */
  required?: readonly string[];
  /** Why a change replaces it, when the model gives it no update operation. */
  replaced?: string;
  /** Its other keys are the launch settings' flags (automation/launch-settings.ts, tw's). */
  launchSettings?: boolean;
  /**
   * Its `labels` key, tw's `--labels` ("name", or "name=value" for a resource label; with
   * `resource`, resource labels only, as tw's ResourceLabelsConverter takes them): the field
   * `labels` holds them as text, compared with the answer's `labels` and sent as the create
   * request's `labelIds` (at its top, beside `create`'s wrapper), those missing created first
   * as tw's LabelsFinder does. A change is in place when `updatable` has `labels`.
   */
  labels?: { resource?: boolean };
  /** seqerakit's keys not read yet, and why: refused as such rather than as unknown. */
  unsupported?: Readonly<Record<string, string>>;
}
