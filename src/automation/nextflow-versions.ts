/** The service's Nextflow version catalog (`GET /platform/versions`, since API 1.187.0). */
import type { SeqeraClient } from "../client/client.js";
import { compareVersions } from "../core/versions.js";
import { requireOperation } from "../openapi/require-operation.js";
import { NextflowVersionError } from "../errors/nextflow-version-error.js";
import { keptAnswer, type KeptAnswer } from "../client/kept-answers.js";

const CATALOG = "/platform/versions";

/** The service's catalog, read once per client family: no call of the API changes it. */
const CATALOGS: KeptAnswer<NextflowVersionCatalog> = {
  kind: "Nextflow version catalog",
  global: true,
  changedBy: [],
  fetch: async (client, signal) =>
    ((await client.request("GET", CATALOG, { signal })) ?? {}) as NextflowVersionCatalog,
};

/**
 * What the check reads of the catalog, on every release (the path and its schema are typed only
 * from 1.187.0). `nextflowVersionPolicyByComputeEnvType` is keyed by a compute environment's
 * `platform` ("aws-batch", …).
 */
export interface NextflowVersionCatalog {
  nextflowVersions?: { version?: string | null; default?: boolean | null }[] | null;
  nextflowVersionPolicyByComputeEnvType?: Record<
    string,
    { minVersion?: string | null; selectable?: boolean | null } | null
  > | null;
  nextflowVersionSelectionEnabled?: boolean | null;
}

/**
 * Checks that the service would launch with Nextflow `version` on a compute environment of type
 * `computeEnvType` (unknown: only the catalog is checked): the catalog lists it, selection is
 * enabled, and it meets the type's minimum. NextflowVersionError otherwise, saying what to
 * choose; on a release without the catalog, UnsupportedOperationError before any request.
 */
export async function checkNextflowVersion(
  client: SeqeraClient,
  version: string,
  computeEnvType: string | undefined,
  signal?: AbortSignal,
): Promise<void> {
  requireOperation(`GET ${CATALOG}`);
  const catalog = await keptAnswer(client, CATALOGS, "", signal);
  const available = (catalog.nextflowVersions ?? []).flatMap((v) => (v.version ? [v.version] : []));
  const details = { version, available, computeEnvType: computeEnvType ?? undefined };
  const choices = available.length ? available.join(", ") : "none";
  if (catalog.nextflowVersionSelectionEnabled === false) {
    throw new NextflowVersionError(
      `The service does not let a launch choose its Nextflow version: launch without one (it uses its default).`,
      details,
    );
  }
  if (!available.includes(version)) {
    throw new NextflowVersionError(
      `Nextflow ${version} is not in the service's catalog (GET /platform/versions): choose one of ${choices}.`,
      details,
    );
  }
  const policy = computeEnvType
    ? catalog.nextflowVersionPolicyByComputeEnvType?.[computeEnvType]
    : undefined;
  if (policy?.selectable === false) {
    throw new NextflowVersionError(
      `Compute environments of type ${computeEnvType} run the service's default Nextflow version: launch without one, or on another compute environment.`,
      details,
    );
  }
  const minVersion = policy?.minVersion ?? undefined;
  if (minVersion && compareVersions(version, minVersion) < 0) {
    const allowed = available.filter((v) => compareVersions(v, minVersion) >= 0);
    throw new NextflowVersionError(
      `Nextflow ${version} is below ${minVersion}, the minimum for ${computeEnvType} compute environments: choose one of ${allowed.join(", ") || "none"}.`,
      { ...details, minVersion },
    );
  }
}
