import type { ServerResponse } from "node:http";
import type { OperationInfo } from "../../generated/operations.js";
import { successResponse, type OpenApiDocument } from "./document.js";
import { sampleSchema } from "./sample.js";
import type { EmulatorResponse } from "./types.js";

const sampledJson = new Map<OperationInfo, string>();

/** A fresh copy of the operation's sampled JSON answer; sampled once per process. */
export function sampledBody(doc: OpenApiDocument, info: OperationInfo): Record<string, unknown> {
  let json = sampledJson.get(info);
  if (json === undefined) {
    const { schema } = successResponse(doc, info);
    json = JSON.stringify(
      schema ? sampleSchema(doc, schema, { direction: "response", minimal: false }) : {},
    );
    sampledJson.set(info, json);
  }
  return JSON.parse(json) as Record<string, unknown>;
}

/** The answer of a stateless operation: its success status with a body valid for the schema. */
export function sampledAnswer(doc: OpenApiDocument, info: OperationInfo): EmulatorResponse {
  const { status, contentType } = successResponse(doc, info);
  if (!contentType) return { status };
  const headers = { "content-type": contentType };
  if (info.parseAs === "json") return { status, body: sampledBody(doc, info), headers };
  // Downloads (logs, CSV exports, files) are `format: binary`: any content is valid.
  const text = "emulated content\n";
  return { status, body: info.parseAs === "text" ? text : new TextEncoder().encode(text), headers };
}

/** Writes an answer; a body the content type does not name is sent as JSON. */
export function writeAnswer(res: ServerResponse, answer: EmulatorResponse): void {
  const headers: Record<string, string> = { ...answer.headers };
  const contentType = Object.keys(headers).find((h) => h.toLowerCase() === "content-type");
  let payload: string | Uint8Array | undefined;
  if (answer.body === undefined) payload = undefined;
  else if (typeof answer.body === "string") {
    payload = answer.body;
    if (!contentType) headers["content-type"] = "text/plain";
  } else if (answer.body instanceof Uint8Array) {
    payload = answer.body;
    if (!contentType) headers["content-type"] = "application/octet-stream";
  } else {
    payload = JSON.stringify(answer.body);
    if (!contentType) headers["content-type"] = "application/json";
  }
  res.writeHead(answer.status, headers);
  res.end(payload);
}
