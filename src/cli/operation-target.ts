import { operations, type OperationInfo } from "../../generated/operations.js";
import { closest } from "./closest.js";
import { operationsSaying } from "./operation-words.js";
import { COMMAND_WORDS } from "./commands.js";
import { UsageError } from "../errors/cli-errors.js";

/** The operation a command line names, with what its path itself carried. */
export interface Target {
  info: OperationInfo;
  /** Path parameters filled in the path as written (`/workflow/abc`), decoded. */
  pathValues: Record<string, string>;
  /** A query string written in the path (`/workflow?max=5`), in order. */
  query: [string, string][];
}

const HTTP_METHODS = new Set(["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"]);
const all = Object.values(operations);

/** `ListWorkflows` (any case) or `GET /workflow/{workflowId}` or `GET /workflow/abc?x=1`. */
export function findTarget(args: readonly string[]): Target {
  const [first, second, ...extra] = args;
  if (first === undefined)
    throw new UsageError("Name an operation, e.g. seqera-api ListWorkflows.");
  const method = first.toUpperCase();
  if (HTTP_METHODS.has(method) && second !== undefined) {
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);
    return byPath(method, second);
  }
  if (second !== undefined) {
    byOperationId(first); // an unknown (or misspelt command) word is the first thing to say
    throw new UsageError(
      `Unexpected argument "${second}": name an operation, or a method and a path (GET /workflow).`,
    );
  }
  if (HTTP_METHODS.has(method))
    throw new UsageError(`${method} needs a path, e.g. ${method} /workflow.`);
  return { info: byOperationId(first), pathValues: {}, query: [] };
}

function byOperationId(name: string): OperationInfo {
  const wanted = name.toLowerCase();
  const info = all.find((o) => o.operationId.toLowerCase() === wanted);
  if (info) return info;
  if (name.startsWith("/")) {
    throw new UsageError(
      `Unknown operation "${name}". A path needs its method first: GET /workflow.`,
    );
  }
  // A misspelt command (`relauch`) reads as an operation: offer the commands too, but not one
  // the name only contains (ListTeams means the teams' list, not `teams add`); then the
  // operations saying the same words (StopStudio: StopDataStudio).
  const near = closest(name, [...COMMAND_WORDS, ...all.map((o) => o.operationId)]).filter(
    (near) => !(COMMAND_WORDS.has(near) && wanted.includes(near)),
  );
  const saying = operationsSaying(name, all).filter((id) => !near.includes(id));
  const offered = [...near, ...saying].slice(0, 4);
  const more = offered.length
    ? ` Did you mean ${offered.join(", ")}?`
    : " seqera-api operations <word> lists the operations about a word.";
  throw new UsageError(`Unknown operation "${name}".${more}`);
}

function byPath(method: string, written: string): Target {
  const [rawPath = "", search = ""] = written.split(/\?(.*)/s, 2);
  const path = normalise(rawPath);
  const query = [...new URLSearchParams(search)];
  const exact = operations[`${method} ${path}`];
  if (exact) return { info: exact, pathValues: {}, query };
  const matches = all
    .map((info) => ({ info, values: match(info.path, path) }))
    .filter((m): m is { info: OperationInfo; values: Record<string, string> } => !!m.values);
  // A literal segment beats a parameter: POST /workflow/launch is not POST /workflow/{id}.
  const mine = matches
    .filter((m) => m.info.method === method)
    .sort((a, b) => Object.keys(a.values).length - Object.keys(b.values).length);
  if (mine[0]) return { info: mine[0].info, pathValues: mine[0].values, query };
  if (matches.length > 0) {
    const methods = [...new Set(matches.map((m) => m.info.method))].join(", ");
    throw new UsageError(
      `${method} ${path} is not an operation; ${matches[0]!.info.path} takes ${methods}.`,
    );
  }
  throw new UsageError(`Unknown path ${method} ${path}.${nearestTemplates(method, path)}`);
}

/**
 * " Did you mean GET /workflow/{workflowId}/log?": templates compared with their parameters
 * filled from the path as written, so that ids do not count as differences.
 */
function nearestTemplates(method: string, path: string): string {
  const got = path.split("/");
  const byFilled = new Map<string, string>();
  for (const info of all.filter((o) => o.method === method)) {
    const want = info.path.split("/");
    const filled = want.map((s, i) => (/^\{.+\}$/.test(s) && got[i] ? got[i] : s)).join("/");
    if (!byFilled.has(filled)) byFilled.set(filled, `${method} ${info.path}`);
  }
  const near = closest(path, byFilled.keys());
  return near.length ? ` Did you mean ${near.map((f) => byFilled.get(f)).join(", ")}?` : "";
}

/** Leading slash, no trailing one: "workflow/" is "/workflow". */
function normalise(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

/** The template's parameters filled from the concrete path, or undefined if it does not fit. */
function match(template: string, path: string): Record<string, string> | undefined {
  const want = template.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const values: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const name = /^\{(.+)\}$/.exec(segment)?.[1];
    const actual = got[i]!;
    if (name === undefined) {
      if (segment !== actual) return undefined;
    } else if (actual === "" || actual === segment) {
      return undefined;
    } else {
      try {
        values[name] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    }
  }
  return values;
}
