import { SCHEMA_VERSION } from "../../generated/version.js";
import type { SeqeraClient } from "./client.js";
import type { CallOptions } from "./types.js";
import { compareVersions, packageLine } from "../core/versions.js";

export { compareVersions, packageLine };

export interface CompatibilityReport {
  /** `serviceInfo.apiVersion` as the server reports it; undefined if it reports none. */
  serverApiVersion: string | undefined;
  /** The API release this client's types were generated from. */
  schemaVersion: string;
  /** False when the server is older than the schema (or does not say its version). */
  compatible: boolean;
  /** This package's line ("1.181.x"): the release its types were generated from. */
  clientLine: string;
  /**
   * The package line built from the server's release ("1.140.x" for a 1.140.0 server), the one
   * whose types and helpers match it exactly; undefined if the server reports no API version.
   */
  serverLine: string | undefined;
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
  const clientLine = packageLine(schemaVersion);
  if (serverApiVersion === undefined) {
    return {
      serverApiVersion,
      schemaVersion,
      clientLine,
      serverLine: undefined,
      compatible: false,
      message: `The server did not report its API version; this client was built from API ${schemaVersion}.`,
    };
  }
  const order = compareVersions(serverApiVersion, schemaVersion);
  const serverLine = packageLine(serverApiVersion);
  const install = `npm install --save-exact seqera-api-client@${serverLine.slice(0, -2)}`;
  const lines = { serverApiVersion, schemaVersion, clientLine, serverLine };
  if (order < 0) {
    return {
      ...lines,
      compatible: false,
      message: `The server's API ${serverApiVersion} is older than API ${schemaVersion} this client was built from: operations and fields added since may be missing (the server answers 403 for paths it does not know). The package line for this server is ${serverLine} (${install}).`,
    };
  }
  return {
    ...lines,
    compatible: true,
    message:
      serverLine === clientLine
        ? `The server's API ${serverApiVersion} matches this client (package line ${clientLine}).`
        : `The server's API ${serverApiVersion} is newer than API ${schemaVersion} this client was built from; operations and fields added since are not typed. The package line for this server, once published, is ${serverLine} (${install}).`,
  };
}
