import type { ResponseIssue } from "../response-validation.js";
import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/**
 * With `validateResponses: "throw"`: a success answer that leaves its operation's response
 * schema (and so the types). `issues` says where: the property path, what was expected, the value.
 */
export class ResponseValidationError extends SeqeraApiError {
  readonly issues: readonly ResponseIssue[];

  constructor(message: string, details: SeqeraApiErrorDetails & { issues: ResponseIssue[] }) {
    super(message, details);
    this.issues = details.issues;
  }
}
ResponseValidationError.prototype.name = "ResponseValidationError";
