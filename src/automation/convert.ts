/**
 * Converters from what the service answers to what it accepts: an answer's fields are
 * `T | null | undefined` (the server writes absent values as null) where a request's are `T`
 * or absent, so copying one into the other does not compile without them. Each reads only the
 * fields it copies (so any schema release's answer fits), drops nulls and read-only fields.
 */
import { ConfigurationError } from "../errors/configuration-error.js";
import type { Writable } from "openapi-typescript-helpers";
import { READ_ONLY_CONFIG_FIELDS } from "../../generated/copies.js";
import type { components } from "../../generated/schema.js";
import { toLaunchRequest } from "./launch.js";
import type { LaunchRequest, PipelineLaunch, RunLaunch } from "../schema/types.js";

type Schemas = components["schemas"];
/** A request body as a call takes it (read-only fields removed, write-only ones plain). */
type Body<N extends keyof Schemas> = Writable<Schemas[N]>;
export type CreatePipelineRequest = Body<"CreatePipelineRequest">;
export type CreateComputeEnvRequest = Body<"CreateComputeEnvRequest">;
export type CreateCredentialsRequest = Body<"CreateCredentialsRequest">;
export type CreateLabelRequest = Body<"CreateLabelRequest">;
type ComputeEnvBody = Body<"ComputeEnv_ComputeConfig_">;
type CredentialsBody = Body<"Credentials">;
/**
 * Fields of a compute environment's configuration that the service writes and never takes,
 * besides those the schema marks readOnly (READ_ONLY_CONFIG_FIELDS): what it created for the
 * environment, which no release marks.
 */
const SERVICE_WRITTEN_CONFIG = ["forgedResources"];

/** Launch fields that name things of the workspace the launch was read from. */
const WORKSPACE_BOUND = [
  "id",
  "pipelineSchemaId",
  "optimizationId",
  "optimizationTargets",
  "labelIds",
] as const satisfies readonly (keyof LaunchRequest)[];

/** The fields of a pipeline that a new pipeline copies (`GET /pipelines`, `GET /pipelines/{id}`). */
export interface PipelineFields {
  name?: string | null;
  description?: string | null;
  icon?: string | null;
}

/**
 * A pipeline and its launch configuration as read, as the body of `POST /pipelines`. The launch
 * loses what belongs to the workspace it was read from (its id, schema and optimization ids,
 * labels); `changes` overrides fields of the launch (e.g. `computeEnvId` in the target workspace),
 * and removes those it gives as null (a `workDir` the target does not have: its default applies).
 *
 * @example
 * const body = toPipelineRequest(pipeline, launch!, { computeEnvId: "4X7YrYJp9B1d1DUpfur7DS" });
 * await client.withWorkspace("acme/dev").POST("/pipelines", { body });
 */
export function toPipelineRequest(
  pipeline: PipelineFields,
  launch: PipelineLaunch | RunLaunch,
  changes: Nullable<LaunchRequest> = {},
): CreatePipelineRequest {
  const copied: Record<string, unknown> = { ...toLaunchRequest(launch) };
  for (const key of WORKSPACE_BOUND) delete copied[key];
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete copied[key];
    else if (value !== undefined) copied[key] = value;
  }
  return withoutNulls({
    name: pipeline.name,
    description: pipeline.description,
    icon: pipeline.icon,
    launch: copied as LaunchRequest,
  });
}

/** The fields of a compute environment that a new one copies (`GET /compute-envs/{id}`). */
export interface ComputeEnvFields {
  name?: string | null;
  platform?: ComputeEnvBody["platform"] | null;
  /** Copied as read, without the resources the service created (`forgedResources`, …). */
  config?: object | null;
  credentialsId?: string | null;
  description?: string | null;
}

/**
 * A compute environment as read, as the body of `POST /compute-envs`; `changes` overrides
 * fields (a new `name`, say). Its credentials belong to the workspace it was read from, so
 * `credentialsId` is sent only when `changes` maps it (the target workspace's); the fields
 * the schema marks readOnly in its platform's configuration are dropped. TypeError when the
 * answer lacks the name, platform or configuration the request needs.
 */
export function toComputeEnvRequest(
  computeEnv: ComputeEnvFields,
  changes: Partial<ComputeEnvBody> = {},
): CreateComputeEnvRequest {
  const name = changes.name ?? computeEnv.name;
  const platform = changes.platform ?? computeEnv.platform;
  const config = changes.config ?? configOf(computeEnv.config, platform);
  if (!name || !platform || !config) {
    throw new ConfigurationError(
      "toComputeEnvRequest: the compute environment has no name, platform or config; read it with GET /compute-envs/{computeEnvId}",
    );
  }
  const body: ComputeEnvBody = withoutNulls({
    name,
    platform,
    config,
    description: computeEnv.description,
    ...changes,
  });
  return { computeEnv: body };
}

/** A configuration as read, as a request takes it: no nulls, nothing the service wrote. */
function configOf(
  config: object | null | undefined,
  platform: string | null | undefined,
): ComputeEnvBody["config"] | undefined {
  if (!config) return undefined;
  const copy = deepWithoutNulls(config) as Record<string, unknown>;
  const readOnly = (platform && READ_ONLY_CONFIG_FIELDS[platform]) || [];
  for (const key of [...SERVICE_WRITTEN_CONFIG, ...readOnly]) delete copy[key];
  // The answer's configuration is the request's, its read-only fields removed just above.
  return copy as ComputeEnvBody["config"];
}

/** The fields of credentials that new ones copy (`GET /credentials`: metadata, never the keys). */
export interface CredentialsFields {
  name?: string | null;
  provider?: CredentialsBody["provider"] | null;
  description?: string | null;
  baseUrl?: string | null;
  category?: string | null;
}

/**
 * Credentials' metadata as read, with `keys` (the service never returns them), as the body of
 * `POST /credentials`. TypeError when the answer lacks the name or provider.
 */
export function toCredentialsRequest(
  credentials: CredentialsFields,
  keys: CredentialsBody["keys"],
): CreateCredentialsRequest {
  const { name, provider } = credentials;
  if (!name || !provider) {
    throw new ConfigurationError("toCredentialsRequest: the credentials have no name or provider");
  }
  return {
    credentials: withoutNulls({
      name,
      provider,
      description: credentials.description,
      baseUrl: credentials.baseUrl,
      category: credentials.category,
      keys,
    }),
  };
}

/** The fields of a label that a new one copies (`GET /labels`). */
export interface LabelFields {
  name?: string | null;
  value?: string | null;
  resource?: boolean | null;
  isDefault?: boolean | null;
}

/** A label as read, as the body of `POST /labels` (e.g. to create it in another workspace). */
export function toLabelRequest(label: LabelFields): CreateLabelRequest {
  return withoutNulls({
    name: label.name,
    value: label.value,
    resource: label.resource,
    isDefault: label.isDefault,
  });
}

/** The object without its null and undefined properties, typed as such. */
type NoNulls<T> = { [K in keyof T]?: Exclude<T[K], null> };

function withoutNulls<T extends object>(value: T): NoNulls<T> & T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v != null)) as NoNulls<T> & T;
}

/** Fields a request may be given, null (as an answer writes "absent") included. */
type Nullable<T> = { [K in keyof T]?: T[K] | null };

/** A JSON value without null properties at any depth (arrays keep their items). */
function deepWithoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepWithoutNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v != null)
      .map(([k, v]) => [k, deepWithoutNulls(v)]),
  );
}
