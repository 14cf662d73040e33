/**
 * Types of the runtime operation table that `npm run generate` writes to
 * generated/operations.ts, which imports them from here.
 */
/** How an operation's success body is read, by its content type (the call's `parseAs` may override it). */
export type BodyFormat = "json" | "text" | "blob" | "empty";

export interface QueryParamInfo {
  style: string;
  explode: boolean;
  array: boolean;
  required: boolean;
}

/** The most items a list page is asked for: the service caps a page at 100. */
export const MAX_PAGE_SIZE = 100;

export type Pagination =
  | { style: "offset"; items: string; total?: string; sizeParam: string }
  | { style: "token"; items: string; sizeParam?: string };

/** What the client needs at run time about one operation; the types carry the rest. */
export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  pathParams: string[];
  query: Record<string, QueryParamInfo>;
  requestContentType?: string;
  responseContentType?: string;
  parseAs: BodyFormat;
  pagination?: Pagination;
}
