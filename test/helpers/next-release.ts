/**
 * "The next release" of the service, derived from the pinned schema with what Seqera's
 * versioning policy says a release may add without breaking clients: a value on every string
 * enum, a property on every object schema, and an operation. A loopback server answers as that
 * release would, in front of an emulator of the pinned one: every JSON object it answers carries
 * the added property, a test turns chosen fields into the added enum values, and the added
 * operation is served. What clients send back with the added property is recorded, then taken
 * off before the pinned emulator sees it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { SCHEMA_VERSION } from "../../generated/version.js";
import type { Emulator } from "../../src/testing/index.js";
import { ROOT } from "./schema.js";

/** The property the next release adds to every object schema. */
export const ADDED_FIELD = "addedInNextRelease";
/** The operation it adds. */
export const ADDED_OPERATION = { method: "GET", path: "/next-release/reports" } as const;
export const NEXT_VERSION = SCHEMA_VERSION.replace(/^(\d+)\.(\d+)\..*$/, (_, major, minor) =>
  [major, Number(minor) + 1, 0].join("."),
);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The value the next release adds to an enum: in the style of the enum's own values. */
const addedValue = (values: string[]): string =>
  values.every((v) => v === v.toUpperCase()) ? "ADDED_IN_NEXT_RELEASE" : "added_in_next_release";

export interface NextRelease {
  /** The derived document (the pinned one is not changed). */
  doc: Json;
  /** The added value of a component schema's enum, or of an enum property ("Credentials.provider"). */
  enumValue(name: string): string;
  /** How many enums gained a value and object schemas a property. */
  counts: { enums: number; objects: number };
}

/** The next release's document, from the pinned generated/openapi.json. */
export async function nextReleaseDocument(): Promise<NextRelease> {
  const doc = JSON.parse(
    await readFile(path.join(ROOT, "generated", "openapi.json"), "utf8"),
  ) as Json;
  const values = new Map<string, string>();
  const counts = { enums: 0, objects: 0 };
  const visit = (node: unknown, name: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => visit(n, name));
    if (!isObject(node)) return;
    if (Array.isArray(node.enum) && node.enum.every((v) => typeof v === "string")) {
      const value = addedValue(node.enum as string[]);
      node.enum.push(value);
      values.set(name, value);
      counts.enums++;
    }
    if (isObject(node.properties)) {
      for (const [key, prop] of Object.entries(node.properties)) visit(prop, `${name}.${key}`);
      node.properties[ADDED_FIELD] = { type: "string", nullable: true };
      counts.objects++;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== "properties" && key !== "enum") visit(child, name);
    }
  };
  const schemas = (doc.components as { schemas: Json }).schemas;
  for (const [name, schema] of Object.entries(schemas)) visit(schema, name);
  (doc.info as Json).version = NEXT_VERSION;
  (doc.paths as Json)[ADDED_OPERATION.path] = {
    get: {
      operationId: "ListNextReleaseReports",
      responses: {
        "200": {
          description: "OK",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  };
  return {
    doc,
    counts,
    enumValue(name) {
      const value = values.get(name);
      if (value === undefined) throw new Error(`The pinned schema has no enum ${name}`);
      return value;
    },
  };
}

/** Changes a JSON answer of the next release: by method and path (without the query). */
export type Rewrite = (body: Json, call: { method: string; path: string; count: number }) => void;

export interface NextReleaseServer {
  url: string;
  release: NextRelease;
  /** Request bodies as clients sent them, by "METHOD /path" (before the added field is taken off). */
  received: { call: string; body: unknown }[];
  /** Answers of `method` on paths matching `path` are changed by `rewrite` (the latest wins). */
  rewrite(method: string, path: RegExp, rewrite: Rewrite): void;
  /** Answers `status` with the service's `{ message }` to the next request matching. */
  failNext(method: string, path: RegExp, status: number, message: string): void;
  clearRewrites(): void;
  close(): Promise<void>;
}

/** Everything JSON gets the added property, in every object, recursively. */
function addField(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(addField);
  if (!isObject(node)) return;
  for (const value of Object.values(node)) addField(value);
  node[ADDED_FIELD] = "a field of the next release";
}

/** Takes the added property off a request body, for the pinned emulator. */
function dropField(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(dropField);
  if (!isObject(node)) return;
  delete node[ADDED_FIELD];
  for (const value of Object.values(node)) dropField(value);
}

export async function startNextRelease(emulator: Emulator): Promise<NextReleaseServer> {
  const release = await nextReleaseDocument();
  const received: NextReleaseServer["received"] = [];
  let rewrites: { method: string; path: RegExp; rewrite: Rewrite; count: number }[] = [];
  let failures: { method: string; path: RegExp; status: number; message: string }[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Buffer = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", "http://next");
    const method = req.method ?? "GET";
    const failure = failures.find((f) => f.method === method && f.path.test(url.pathname));
    if (failure) {
      failures = failures.filter((f) => f !== failure);
      res.writeHead(failure.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ message: failure.message }));
      return;
    }
    if (method === ADDED_OPERATION.method && url.pathname === ADDED_OPERATION.path) {
      const answer = { reports: [{ id: "r1" }] };
      addField(answer);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      return;
    }
    const headers = { ...req.headers } as Record<string, string>;
    delete headers.host;
    delete headers["content-length"];
    if (body.length && /json/.test(headers["content-type"] ?? "")) {
      const parsed = JSON.parse(body.toString("utf8")) as unknown;
      received.push({ call: `${method} ${url.pathname}`, body: structuredClone(parsed) });
      dropField(parsed);
      body = Buffer.from(JSON.stringify(parsed));
    }
    const answer = await fetch(emulator.url + url.pathname + url.search, {
      method,
      headers,
      body: body.length ? new Uint8Array(body) : undefined,
      redirect: "manual",
    });
    const type = answer.headers.get("content-type") ?? "";
    const out: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      if (!["content-length", "content-encoding", "transfer-encoding", "connection"].includes(key))
        out[key] = value;
    });
    if (!type.includes("json") || answer.status === 204) {
      res.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()));
      return;
    }
    const json = (await answer.json()) as unknown;
    if (isObject(json)) {
      if (url.pathname === "/service-info" && isObject(json.serviceInfo)) {
        json.serviceInfo.version = NEXT_VERSION;
        json.serviceInfo.apiVersion = NEXT_VERSION;
      }
      if (answer.ok) {
        const rule = [...rewrites]
          .reverse()
          .find((r) => r.method === method && r.path.test(url.pathname));
        if (rule) rule.rewrite(json, { method, path: url.pathname, count: rule.count++ });
      }
    }
    addField(json);
    res.writeHead(answer.status, out).end(JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    release,
    received,
    rewrite: (method, path, rewrite) => void rewrites.push({ method, path, rewrite, count: 0 }),
    failNext: (method, path, status, message) =>
      void failures.push({ method, path, status, message }),
    clearRewrites: () => {
      rewrites = [];
      failures = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
