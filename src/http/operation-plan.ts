import { operations, type Pagination } from "../../generated/operations.js";
import { multipartSerializer, type BodySerializer } from "./multipart.js";
import type { ParseMode } from "./read-response.js";
import { createQuerySerializer, type QuerySerializer } from "./query.js";

/** What a call needs to know about its operation, worked out once per operation. */
export interface OperationPlan {
  operationId: string;
  parseAs: ParseMode;
  serializeQuery: QuerySerializer;
  /** Whether the operation takes a `workspaceId` query parameter (the client's default fills it). */
  takesWorkspaceId: boolean;
  /** Set for multipart operations; other bodies are sent as JSON. */
  serializeBody: BodySerializer | undefined;
  /** How the operation pages, if it is a list. */
  pagination: Pagination | undefined;
}

/**
 * Returns the plan for "METHOD /path/{template}", building it on first use. Paths the table does
 * not list (request() with anything) share one generic plan, so arbitrary input cannot grow the cache.
 */
export function createPlanLookup(): (method: string, path: string) => OperationPlan {
  const plans = new Map<string, OperationPlan>();
  const unlisted: OperationPlan = {
    operationId: "unknown",
    parseAs: "auto",
    serializeQuery: createQuerySerializer(undefined),
    takesWorkspaceId: false,
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
        parseAs: info.parseAs,
        serializeQuery: createQuerySerializer(info.query),
        takesWorkspaceId: info.query.workspaceId !== undefined,
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
