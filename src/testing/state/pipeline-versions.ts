/**
 * A pipeline's versions, as the service keeps them since pipeline versioning: each version is
 * a saved launch (its id is that launch's id, which a launch names as `launch.id`). Adding a
 * pipeline publishes its first version, the default; an edit that changes the launch makes a
 * new draft (no name) from it; naming a draft publishes it; one published version is the
 * default, which a launch without `versionId` uses.
 */
import { createHash } from "node:crypto";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { randomId, serviceTimestamp } from "../ids.js";
import type { Endings } from "./runs.js";
import { timestamp, type Dated } from "./store.js";

/** A saved launch's fields (`computeEnvId`, `revision`, `paramsText`, ...), kept as given. */
export type LaunchConfig = Record<string, unknown> & {
  computeEnvId?: string;
  workDir?: string;
  revision?: string;
  paramsText?: string;
  configProfiles?: string[];
};

export interface PipelineVersion {
  /** The version's saved launch id (`GET /pipelines/{id}/launch?versionId=`, `launch.id`). */
  id: string;
  /** Undefined for a draft; a published version has one, unique within its pipeline. */
  name?: string;
  isDefault: boolean;
  launch: LaunchConfig;
  dateCreated: string;
  lastUpdated: string;
  /** How runs launched from this version end, over the pipeline's `ending`. */
  ending?: Endings;
}

/** A version as a seed gives it: its launch is merged over the pipeline's `launch`. */
export interface PipelineVersionInit extends Dated {
  id?: string;
  /** Absent or null: a draft. */
  name?: string | null;
  /** The default version (at most one); default: the first published one. */
  isDefault?: boolean;
  launch?: LaunchConfig;
  /** How runs launched from this version end (one ending, or a list taken in turn). */
  ending?: Endings;
}

const MAX_NAME = 255;

/**
 * The versions a pipeline starts with: those seeded (over its launch), else one published
 * version named `<pipeline>-1`, the default.
 */
export function initialVersions(
  pipelineName: string,
  launch: LaunchConfig,
  inits: readonly PipelineVersionInit[] | undefined,
): PipelineVersion[] {
  const given = inits?.length ? inits : [{ name: `${pipelineName}-1` }];
  const versions = given.map((init) => {
    const dateCreated = timestamp(init.dateCreated);
    return {
      id: init.id ?? randomId(22),
      ...(init.name != null && { name: init.name }),
      isDefault: init.isDefault === true,
      launch: { ...launch, ...init.launch },
      dateCreated,
      lastUpdated: timestamp(init.lastUpdated, dateCreated),
      ...(init.ending && { ending: init.ending }),
    };
  });
  const defaults = versions.filter((v) => v.isDefault);
  if (defaults.length > 1 || defaults.some((v) => v.name === undefined)) {
    throw new ConfigurationError(
      `Pipeline ${pipelineName}: at most one version is the default, and it has a name (a draft cannot be)`,
    );
  }
  const names = versions.flatMap((v) => (v.name === undefined ? [] : [v.name]));
  if (new Set(names).size < names.length) {
    throw new ConfigurationError(`Pipeline ${pipelineName}: two versions have the same name`);
  }
  const fallback = versions.find((v) => v.name !== undefined);
  if (defaults.length === 0) {
    if (!fallback) {
      throw new ConfigurationError(`Pipeline ${pipelineName}: seed at least one named version`);
    }
    fallback.isDefault = true;
  }
  return versions;
}

export function defaultVersion(versions: readonly PipelineVersion[]): PipelineVersion {
  return versions.find((v) => v.isDefault)!;
}

/**
 * After an edit of `from`'s launch: the version that already holds the edited launch (the
 * service knows a version by its content, `hash`), `from` itself changed in place when it is a
 * draft, else a new draft holding the edited launch.
 */
export function editVersion(
  versions: PipelineVersion[],
  from: PipelineVersion,
  changes: LaunchConfig,
): PipelineVersion {
  const launch = { ...from.launch, ...changes };
  const same = versions.find((v) => sameLaunch(launch, v.launch));
  if (same) return same;
  const now = serviceTimestamp(new Date());
  if (from.name === undefined) {
    Object.assign(from, { launch, lastUpdated: now });
    return from;
  }
  const draft: PipelineVersion = {
    id: randomId(22),
    isDefault: false,
    launch,
    dateCreated: now,
    lastUpdated: now,
  };
  versions.push(draft);
  return draft;
}

/** Why a version name is refused (400), or undefined for a good one. */
export function badVersionName(name: unknown): string | undefined {
  if (typeof name !== "string" || name.trim() === "" || name !== name.trim()) {
    return "A pipeline version name is a non-empty text without leading or trailing spaces";
  }
  if (name.length > MAX_NAME) return `A pipeline version name has at most ${MAX_NAME} characters`;
  return undefined;
}

/** The version's content hash, as the service lists it (`version.hash`). */
export function versionHash(version: PipelineVersion): string {
  const digest = createHash("sha512").update(canonical(version.launch)).digest("hex");
  return Buffer.from(`$v5:${digest}`).toString("base64");
}

function sameLaunch(a: LaunchConfig, b: LaunchConfig): boolean {
  return canonical(a) === canonical(b);
}

function canonical(launch: LaunchConfig): string {
  return JSON.stringify(
    Object.keys(launch)
      .sort()
      .map((key) => [key, launch[key]]),
  );
}
