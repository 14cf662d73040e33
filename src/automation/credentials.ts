/** Rotating credentials' keys, and the compute environments that use them. */
import type { SeqeraClient } from "../client/client.js";
import { keptList, lookup, lookupOptional } from "../client/lookup.js";
import type { components } from "../../generated/schema.js";
import type { Writable } from "openapi-typescript-helpers";
import { CREDENTIALS } from "./names.js";
import type { ComputeEnvSummary, Credentials } from "../schema/types.js";

/** Credentials' keys as the service takes them: `{ discriminator: "aws", accessKey, secretKey }`. */
type ServiceKeys = NonNullable<Writable<components["schemas"]["Credentials"]>["keys"]>;
/**
 * The keys of one provider, its `discriminator` optional (default the credentials' provider), so
 * that `{ accessKey, secretKey }` held in a variable fits with no cast.
 */
export type CredentialsKeys = ServiceKeys extends infer K
  ? K extends { discriminator: infer D }
    ? Omit<K, "discriminator"> & { discriminator?: D }
    : never
  : never;

export interface UpdateCredentialsOptions {
  /** A new description; default the current one. */
  description?: string;
  /** Resolve with undefined when the workspace has no such credentials, instead of NameNotFoundError. */
  optional?: boolean;
  signal?: AbortSignal;
}

export interface UpdatedCredentials {
  credentialsId: string;
  /** The workspace's compute environments that use these credentials, with their `status`. */
  computeEnvs: ComputeEnvSummary[];
}

/**
 * Replaces the keys of the credentials with that name or id in the client's workspace (`PUT
 * /credentials/{credentialsId}`, their name, provider and other fields kept), and gives the
 * compute environments that use them, with their status (`GET /compute-envs`), to check after
 * a rotation. NameNotFoundError naming the near ones when there are none (or undefined with
 * `optional`).
 *
 * @example
 * const keys = { accessKey: process.env.KEY!, secretKey: process.env.SECRET! };
 * const { computeEnvs } = await updateCredentials(client, "aws-prod", keys);
 */
export async function updateCredentials(
  client: SeqeraClient,
  credentials: string,
  keys: CredentialsKeys,
  options: UpdateCredentialsOptions & { optional: true },
): Promise<UpdatedCredentials | undefined>;
export async function updateCredentials(
  client: SeqeraClient,
  credentials: string,
  keys: CredentialsKeys,
  options?: UpdateCredentialsOptions & { optional?: false },
): Promise<UpdatedCredentials>;
export async function updateCredentials(
  client: SeqeraClient,
  credentials: string,
  keys: CredentialsKeys,
  options: UpdateCredentialsOptions = {},
): Promise<UpdatedCredentials | undefined> {
  const { signal } = options;
  const byId = (await keptList(client, CREDENTIALS, signal)).find((c) => c.id === credentials);
  const found: Credentials | undefined =
    byId ??
    (options.optional
      ? await lookupOptional(client, CREDENTIALS, credentials, signal)
      : await lookup(client, CREDENTIALS, credentials, signal));
  if (!found?.id) return undefined;
  const credentialsId = found.id;
  await client.PUT("/credentials/{credentialsId}", {
    params: { path: { credentialsId } },
    body: {
      credentials: {
        id: credentialsId,
        name: found.name ?? undefined,
        provider: found.provider!,
        description: options.description ?? found.description ?? undefined,
        baseUrl: found.baseUrl ?? undefined,
        category: found.category ?? undefined,
        // Object.assign: before 1.102.0 the keys have no discriminated type to spread.
        keys: Object.assign({ discriminator: found.provider }, keys) as ServiceKeys,
      },
    },
    signal,
  });
  const { computeEnvs } = await client.GET("/compute-envs", { signal });
  return {
    credentialsId,
    computeEnvs: (computeEnvs ?? []).filter((c) => c.credentialsId === credentialsId),
  };
}
