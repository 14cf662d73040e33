import { SCHEMA_VERSION } from "../../generated/version.js";
import type { SeqeraClient } from "./client.js";
import type { CallOptions } from "./types.js";
import { compareVersions } from "../core/versions.js";

export { compareVersions };

export interface CompatibilityReport {
  /** `serviceInfo.apiVersion` as the server reports it; undefined if it reports none. */
  serverApiVersion: string | undefined;
  /** The API release this client's types were generated from. */
  schemaVersion: string;
  /** False when the server is older than the schema (or does not say its version). */
  compatible: boolean;
  message: string;
}

/**
 * Reads GET /service-info and compares the server's API version with the pinned schema's. An
 * older server may lack operations and fields the types offer; it answers 403 for unknown paths.
 */
export async function checkCompatibility(
  client: SeqeraClient,
  options: Pick<CallOptions, "signal" | "timeoutMs"> = {},
): Promise<CompatibilityReport> {
  const info = await client.GET("/service-info", options);
  const serverApiVersion = info?.serviceInfo?.apiVersion || undefined;
  const schemaVersion = SCHEMA_VERSION;
  if (serverApiVersion === undefined) {
    return {
      serverApiVersion,
      schemaVersion,
      compatible: false,
      message: `The server did not report its API version; this client was built from API ${schemaVersion}.`,
    };
  }
  const order = compareVersions(serverApiVersion, schemaVersion);
  if (order < 0) {
    return {
      serverApiVersion,
      schemaVersion,
      compatible: false,
      message: `The server's API ${serverApiVersion} is older than API ${schemaVersion} this client was built from: operations and fields added since may be missing (the server answers 403 for paths it does not know).`,
    };
  }
  return {
    serverApiVersion,
    schemaVersion,
    compatible: true,
    message:
      order === 0
        ? `The server's API ${serverApiVersion} matches this client.`
        : `The server's API ${serverApiVersion} is newer than API ${schemaVersion} this client was built from; operations and fields added since are not typed.`,
  };
}
