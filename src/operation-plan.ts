import { operations, type Pagination } from "../generated/operations.js";
import { multipartSerializer, type BodySerializer } from "./multipart.js";
import type { ParseMode } from "./parse.js";
import { createQuerySerializer, type QuerySerializer } from "./query.js";

/** What a call needs to know about its operation, worked out once per operation and client. */
export interface OperationPlan {
  operationId: string;
  pathParams: readonly string[];
  parseAs: ParseMode;
  serializeQuery: QuerySerializer;
  /** Set for multipart operations; JSON bodies use openapi-fetch's default. */
  serializeBody: BodySerializer | undefined;
  /** How the operation pages, if it is a list. */
  pagination: Pagination | undefined;
}

/**
 * Returns the plan for "METHOD /path/{template}", building it on first use. Paths the table does
 * not list (request() with anything) share one generic plan, so arbitrary input cannot grow the cache.
 */
export function createPlanLookup(
  workspaceId: string | undefined,
): (method: string, path: string) => OperationPlan {
  const plans = new Map<string, OperationPlan>();
  const unlisted: OperationPlan = {
    operationId: "unknown",
    pathParams: [],
    parseAs: "auto",
    serializeQuery: createQuerySerializer(undefined, undefined),
    serializeBody: undefined,
    pagination: undefined,
  };
  return (method, path) => {
    const key = `${method} ${path}`;
    let plan = plans.get(key);
    if (plan === undefined) {
      const info = operations[key];
      if (info === undefined) return unlisted;
      plan = {
        operationId: info.operationId,
        pathParams: info.pathParams,
        parseAs: info.parseAs,
        serializeQuery: createQuerySerializer(info.query, workspaceId),
        serializeBody:
          info.requestContentType === "multipart/form-data"
            ? multipartSerializer(info.operationId)
            : undefined,
        pagination: info.pagination,
      };
      plans.set(key, plan);
    }
    return plan;
  };
}
