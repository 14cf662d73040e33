import type { QueryParamInfo } from "../../generated/operations.js";
import { ConfigurationError } from "../errors/configuration-error.js";

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
      const key = encodeUrlText(name, `The query parameter name ${JSON.stringify(name)}`);
      if (Array.isArray(value)) {
        if (value.length === 0) continue;
        if (declared?.[name]?.explode === false) {
          parts.push(`${key}=${value.map((item) => encodeValue(name, item)).join(",")}`);
        } else {
          for (const item of value) parts.push(`${key}=${encodeValue(name, item)}`);
        }
      } else {
        parts.push(`${key}=${encodeValue(name, value)}`);
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

function encodeValue(name: string, value: unknown): string {
  if (typeof value === "object") {
    throw new ConfigurationError(
      `Query parameter "${name}" must be a string, number or boolean, or an array of them.`,
    );
  }
  return encodeUrlText(String(value), `Query parameter "${name}"`);
}

/**
 * encodeURIComponent, with the URIError of text that is not valid Unicode (a lone UTF-16
 * surrogate) turned into a ConfigurationError naming what was given: such text has no UTF-8
 * form, so it cannot be sent as given.
 */
export function encodeUrlText(text: string, what: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    throw new ConfigurationError(
      `${what} is not valid Unicode text (it holds half of a UTF-16 surrogate pair), so it cannot be sent in a URL.`,
    );
  }
}
