import type { OperationInfo } from "./operation-info.js";
import { deref, operationObject, type OpenApiDocument, type SchemaObject } from "./document.js";

export {
  deref,
  isRecord,
  operationParameters as parameters,
  successResponse,
  type OpenApiDocument,
  type ParameterObject,
  type SchemaObject,
} from "./document.js";
export { loadDocument } from "./load.js";

interface MediaObject {
  schema?: SchemaObject;
}

export interface RequestBodyInfo {
  required: boolean;
  /** Media types the operation accepts, in the schema's order, with their schemas. */
  content: Record<string, SchemaObject | undefined>;
}

export function requestBody(
  doc: OpenApiDocument,
  info: OperationInfo,
): RequestBodyInfo | undefined {
  const body = deref<{ required?: boolean; content?: Record<string, MediaObject> }>(
    doc,
    operationObject(doc, info).requestBody,
  );
  if (!body?.content) return undefined;
  const content: Record<string, SchemaObject | undefined> = {};
  for (const [type, media] of Object.entries(body.content)) content[type] = media.schema;
  return { required: body.required === true, content };
}

/** Whether the schema asks for a bearer token; a few operations (service-info, GA4GH) do not. */
export function requiresToken(doc: OpenApiDocument, info: OperationInfo): boolean {
  const security =
    (operationObject(doc, info).security as unknown[] | undefined) ?? doc.security ?? [];
  return security.length > 0;
}
