import type { QueryParamInfo } from "../generated/operations.js";

export type QuerySerializer = (query: Record<string, unknown>) => string;

/**
 * Builds one operation's query serializer from its schema entry. The pinned schema declares
 * `attributes` as `explode: false` (a,b) on some operations and `explode: true` (a=x&a=y) on
 * others, so this cannot be a single client-wide setting. Undefined and null values are skipped;
 * parameters the schema does not declare use the OpenAPI default (form, explode). When
 * `workspaceId` is given and the operation takes a `workspaceId` query parameter, it fills it in
 * for calls that set none.
 */
export function createQuerySerializer(
  declared: Readonly<Record<string, QueryParamInfo>> | undefined,
  workspaceId: string | undefined,
): QuerySerializer {
  const defaultWorkspace =
    workspaceId !== undefined && declared?.workspaceId !== undefined
      ? `workspaceId=${workspaceId}`
      : undefined;
  return (query) => {
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
      defaultWorkspace !== undefined &&
      (query.workspaceId === undefined || query.workspaceId === null)
    ) {
      parts.push(defaultWorkspace);
    }
    return parts.join("&");
  };
}

function encodeValue(value: unknown): string {
  if (typeof value === "object") {
    throw new TypeError(
      "Query parameter values must be strings, numbers, booleans or arrays of them.",
    );
  }
  return encodeURIComponent(String(value));
}
