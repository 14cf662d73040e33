import { afterAll, beforeAll, expect, test } from "vitest";
import { operations, type OperationInfo } from "../../generated/operations.js";
import {
  loadDocument,
  parameters,
  requestBody,
  successResponse,
  type SchemaObject,
} from "../../src/openapi/operations-document.js";
import { sampleSchema } from "../../src/testing/sample.js";
import { schemaValidator } from "../../src/testing/validator.js";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { createSeqeraClient, type SeqeraClient } from "../../src/index.js";
import { worldFor } from "./world.js";

/**
 * The contract run: every operation of the pinned schema, called through the client with
 * minimal valid arguments, must be accepted by the emulator as valid and its answer parsed.
 */

interface CallArgs {
  params: { path: Record<string, unknown>; query: Record<string, unknown> };
  body?: unknown;
}

const doc = loadDocument();
let emulator: Emulator;
let client: SeqeraClient;

beforeAll(async () => {
  // Rate limits have their own tests; here they would only make the run wait.
  emulator = await startEmulator({ rateLimit: false });
  // Retries would hide a request the emulator rejected; the client's own env is not wanted.
  client = createSeqeraClient({
    token: emulator.token,
    baseUrl: emulator.url,
    rateLimit: false,
    retry: false,
    env: {},
  });
});

afterAll(async () => {
  await client.close();
  await emulator.close();
});

/** Every operation goes through the client's untyped entry, which the typed methods share. */
async function call(info: OperationInfo, args: CallArgs): Promise<unknown> {
  return client.request(info.method, info.path, {
    params: args.params,
    body: args.body,
  });
}

function minimalArgs(info: OperationInfo): CallArgs {
  const args: CallArgs = { params: { path: {}, query: {} } };
  // Operations answered from state need ids that exist and bodies they accept.
  const world = worldFor(emulator, info.operationId);
  for (const param of parameters(doc, info)) {
    if (param.in !== "path" && !(param.in === "query" && param.required)) continue;
    const value =
      param.in === "path" && world && param.name in world.path
        ? world.path[param.name]
        : sampleSchema(
            doc,
            param.schema ?? {},
            { direction: "request", minimal: true },
            param.name,
          );
    args.params[param.in === "path" ? "path" : "query"][param.name] = value;
  }
  // Minimal: an optional body is left out (GET .../settings/studios declares one, which
  // fetch could not even send).
  const body = requestBody(doc, info);
  const schema = body?.required ? body.content[info.requestContentType ?? ""] : undefined;
  Object.assign(args.params.query, world?.query);
  if (world?.body !== undefined) args.body = world.body;
  else if (schema) {
    args.body =
      info.requestContentType === "multipart/form-data"
        ? formData(schema)
        : sampleSchema(doc, schema, { direction: "request", minimal: true });
  }
  return args;
}

/** A form with every field of the schema; files get a small CSV. */
function formData(schema: SchemaObject): FormData {
  const form = new FormData();
  const fields = sampleSchema(doc, schema, {
    direction: "request",
    minimal: false,
  });
  const properties = (resolve(schema).properties ?? {}) as Record<string, SchemaObject>;
  for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
    if (resolve(properties[name] ?? {}).format === "binary") {
      form.append(name, new Blob(["sample,id\nA,1\n"], { type: "text/csv" }), "sample.csv");
    } else form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return form;
}

function resolve(schema: SchemaObject): SchemaObject {
  const ref = schema.$ref;
  return typeof ref === "string" ? doc.components.schemas[ref.split("/").pop()!]! : schema;
}

/** What the client's answer must be for the operation's declared response. */
function checkParsed(info: OperationInfo, data: unknown): string | undefined {
  switch (info.parseAs) {
    case "json": {
      const { schema } = successResponse(doc, info);
      return schema ? schemaValidator("response").check(schema, data, "data") : undefined;
    }
    case "text":
      return typeof data === "string" && data.length > 0 ? undefined : "expected text";
    case "blob":
      return data instanceof Blob && data.size > 0 ? undefined : "expected a non-empty Blob";
    case "empty":
      return data === undefined || data === "" ? undefined : "expected no content";
  }
}

test("every operation of the pinned schema round-trips through the client", async () => {
  const entries = Object.entries(operations);
  const failures: string[] = [];
  for (const [key, info] of entries) {
    const seen = emulator.requests.length;
    try {
      const data = await call(info, minimalArgs(info));
      const recorded = emulator.requests.slice(seen);
      const status = recorded[recorded.length - 1]?.status ?? 0;
      const problem =
        recorded.length !== 1 || recorded[0]!.operationId !== info.operationId
          ? `emulator saw ${recorded.map((r) => r.operationId).join(", ") || "nothing"}`
          : status < 200 || status > 299
            ? `emulator answered ${status}`
            : checkParsed(info, data);
      if (problem) failures.push(`${key}: ${problem}`);
    } catch (error) {
      failures.push(`${key}: ${(error as Error).message}`);
    }
  }
  const passed = entries.length - failures.length;
  console.log(`${passed}/${entries.length} operations`);
  expect(entries.length).toBeGreaterThan(0);
  expect(failures).toEqual([]);
});
