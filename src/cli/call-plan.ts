import type { OperationInfo } from "../../generated/operations.js";
import { MAX_PAGE_SIZE } from "../openapi/operation-info.js";
import { isRecord, loadDocument, requestBody } from "../openapi/operations-document.js";
import type { UntypedInit } from "../http/request.js";
import { applyFields, type FieldArg, type InputSource } from "./body-fields.js";
import { didYouMean } from "./closest.js";
import type { Target } from "./operation-target.js";
import { UsageError } from "../errors/cli-errors.js";
import { parseJsonText, readFileOption } from "./input-text.js";

/** What the command line asks of one operation, checked before anything is sent. */
export interface CallPlan {
  info: OperationInfo;
  init: UntypedInit;
  /** Path parameters the configured workspace fills in: `workspaceId`, and `orgId` beside it. */
  fromWorkspace: ("workspaceId" | "orgId")[];
  /** Set with --paginate: the page size asked with -q max=N (or pageSize=N), if any. */
  paginate?: { pageSize?: number };
}

export interface CallArgs {
  param?: string[];
  query?: string[];
  fields: FieldArg[];
  input?: string;
  paginate?: boolean;
  /** Whether a default workspace is configured (--workspace or TOWER_WORKSPACE_ID). */
  hasWorkspace: boolean;
}

/** Turns the arguments into the client call's init; any inconsistency is a UsageError. */
export async function planCall(target: Target, args: CallArgs, io: InputSource): Promise<CallPlan> {
  const { info } = target;
  const name = `${info.operationId} (${info.method} ${info.path})`;
  const path = pathParams(info, name, target.pathValues, pairs("-p", args.param));
  const fromWorkspace = args.hasWorkspace ? fillable(info, path) : [];
  const missing = info.pathParams.filter(
    (key) => !path[key] && !(fromWorkspace as string[]).includes(key),
  );
  if (missing.length > 0) {
    throw new UsageError(`${name} needs ${missing.map((key) => `-p ${key}=<value>`).join(" ")}.`);
  }
  const query = queryParams(
    info,
    name,
    [...target.query, ...pairs("-q", args.query)],
    args.hasWorkspace,
  );
  const init: UntypedInit = { params: { path, query } };
  const body = await bodyOf(info, name, args, io);
  if (body !== undefined) init.body = body;
  if (!args.paginate) return { info, init, fromWorkspace };
  return { info, init, fromWorkspace, paginate: pagination(info, name, query) };
}

function pairs(flag: string, list: string[] = []): [string, string][] {
  return list.map((text) => {
    const eq = text.indexOf("=");
    if (eq <= 0) throw new UsageError(`${flag} ${JSON.stringify(text)}: expected name=value.`);
    return [text.slice(0, eq), text.slice(eq + 1)];
  });
}

function pathParams(
  info: OperationInfo,
  name: string,
  fromPath: Record<string, string>,
  given: [string, string][],
): Record<string, string> {
  const values = { ...fromPath };
  for (const [key, value] of given) {
    if (!info.pathParams.includes(key)) {
      const known = info.pathParams.length
        ? didYouMean(key, info.pathParams) || ` It takes ${info.pathParams.join(", ")}.`
        : " It takes none.";
      throw new UsageError(`${name} has no path parameter "${key}".${known}`);
    }
    if (key in values) throw new UsageError(`Path parameter ${key} is given twice.`);
    values[key] = value;
  }
  return values;
}

/** A path's `workspaceId` left out, and its `orgId` beside it: the configured workspace's. */
function fillable(info: OperationInfo, given: Record<string, string>): ("workspaceId" | "orgId")[] {
  if (!info.pathParams.includes("workspaceId") || given.workspaceId) return [];
  return info.pathParams.includes("orgId") && !given.orgId
    ? ["workspaceId", "orgId"]
    : ["workspaceId"];
}

function queryParams(
  info: OperationInfo,
  name: string,
  given: [string, string][],
  hasWorkspace: boolean,
): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of given) {
    const param = Object.hasOwn(info.query, key) ? info.query[key] : undefined;
    if (!param) {
      const names = Object.keys(info.query);
      const known = names.length
        ? didYouMean(key, names) || ` It takes ${names.join(", ")}.`
        : " It takes none.";
      throw new UsageError(`${name} has no query parameter "${key}".${known}`);
    }
    const before = query[key];
    if (before === undefined) query[key] = param.array ? [value] : value;
    else if (Array.isArray(before)) before.push(value);
    else throw new UsageError(`Query parameter ${key} is given twice; it takes one value.`);
  }
  const missing = Object.entries(info.query)
    .filter(([key, p]) => p.required && !(key in query))
    // The client sends the configured workspace to operations that take one.
    .filter(([key]) => !(key === "workspaceId" && hasWorkspace))
    .map(([key]) => `-q ${key}=<value>`);
  if (missing.length > 0) throw new UsageError(`${name} needs ${missing.join(" ")}.`);
  return query;
}

async function bodyOf(
  info: OperationInfo,
  name: string,
  args: CallArgs,
  io: InputSource,
): Promise<unknown> {
  const given = args.fields.length > 0 || args.input !== undefined;
  if (!info.requestContentType) {
    if (given)
      throw new UsageError(`${name} takes no request body; its parameters go in -p and -q.`);
    return undefined;
  }
  const doc = loadDocument();
  const declared = requestBody(doc, info);
  if (!given) {
    if (declared?.required) {
      throw new UsageError(
        `${name} needs a request body: -F key=value fields or --input file.json (see seqera-api ${info.operationId} --help).`,
      );
    }
    return undefined;
  }
  const multipart = info.requestContentType === "multipart/form-data";
  if (multipart && args.input !== undefined) {
    throw new UsageError(`${name} takes a multipart body: give its parts with -F name=@file.`);
  }
  const base = args.input === undefined ? {} : await readInput(args.input, io);
  if (args.fields.length === 0) return base;
  if (!isRecord(base))
    throw new UsageError("--input holds no JSON object, so -F/-f fields cannot be added to it.");
  const root = declared?.content[info.requestContentType];
  return applyFields(base, args.fields, { doc, root, multipart }, io);
}

async function readInput(file: string, io: InputSource): Promise<unknown> {
  const { label, text } = await readFileOption("--input", file, io);
  return parseJsonText(label, text);
}

function pagination(
  info: OperationInfo,
  name: string,
  query: Record<string, string | string[]>,
): { pageSize?: number } {
  const paging = info.pagination;
  if (!paging) throw new UsageError(`--paginate needs a list operation; ${name} is not one.`);
  for (const key of ["offset", "nextPageToken"]) {
    if (key in query) throw new UsageError(`--paginate sets ${key} itself; leave out -q ${key}.`);
  }
  const size = paging.sizeParam === undefined ? undefined : query[paging.sizeParam];
  if (size === undefined) return {};
  delete query[paging.sizeParam!];
  const pageSize = Number(size);
  if (!(Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_PAGE_SIZE)) {
    throw new UsageError(
      `-q ${paging.sizeParam}=${String(size)}: a page size is 1 to ${MAX_PAGE_SIZE}.`,
    );
  }
  return { pageSize };
}
