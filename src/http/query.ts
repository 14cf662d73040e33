import { ConfigurationError } from "../errors/configuration-error.js";
import type { QueryParamInfo } from "../../generated/operations.js";

/** `defaultWorkspaceId` is sent when the operation takes `workspaceId` and the query sets none. */
export type QuerySerializer = (
  query: Record<string, unknown>,
  defaultWorkspaceId: string | undefined,
) => string;

/**
 * Builds one operation's query serializer from its schema entry. The pinned schema declares
 * `attributes` as `explode: false` (a,b) on some operations and `explode: true` (a=x&a=y) on
 * others, so this cannot be a single client-wide setting. Undefined and null values are skipped;
 * parameters the schema does not declare use the OpenAPI default (form, explode).
 */
export function createQuerySerializer(
  declared: Readonly<Record<string, QueryParamInfo>> | undefined,
): QuerySerializer {
  const takesWorkspaceId = declared?.workspaceId !== undefined;
  return (query, defaultWorkspaceId) => {
    const parts: string[] = [];
    for (const name in query) {
      const value = query[name];
      if (value === undefined || value === null) continue;
      const key = encodeURIComponent(name);
      if (Array.isArray(value)) {
        if (value.length === 0) continue;
        if (declared?.[name]?.explode === false) {
          parts.push(`${key}=${value.map(encodeValue).join(",")}`);
        } else {
          for (const item of value) parts.push(`${key}=${encodeValue(item)}`);
        }
      } else {
        parts.push(`${key}=${encodeValue(value)}`);
      }
    }
    if (
      takesWorkspaceId &&
      defaultWorkspaceId !== undefined &&
      (query.workspaceId === undefined || query.workspaceId === null)
    ) {
      parts.push(`workspaceId=${defaultWorkspaceId}`);
    }
    return parts.join("&");
  };
}

function encodeValue(value: unknown): string {
  if (typeof value === "object") {
    throw new ConfigurationError(
      "Query parameter values must be strings, numbers, booleans or arrays of them.",
    );
  }
  return encodeURIComponent(String(value));
}
