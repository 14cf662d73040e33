import { SeqeraApiError, type SeqeraApiErrorDetails } from "./seqera-api-error.js";

/** Where an answer leaves its operation's response schema. */
export interface ResponseIssue {
  /** JSON pointer of the offending value in the body, e.g. `/workflow/stats/computeTimeFmt`. */
  path: string;
  /** What the schema expects there: `must be string`, `is required but absent`, … */
  message: string;
  /**
   * The offending value, for display: numbers, booleans and null as they are; strings cut to
   * 64 characters; an object or array only by its shape (`object {id, name}`, `array(3)`), so
   * no nested secret is copied out; `undefined` for an absent property; `"[redacted]"` for a
   * property whose name says it holds a secret (token, secret, password, private key, …).
   */
  value: unknown;
}

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
