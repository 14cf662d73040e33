import type { CallInfo } from "./seqera-api-error.js";
import { UnexpectedAnswerError } from "./unexpected-answer-error.js";

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
 * schema (and so the types), an answer the client cannot use like any other
 * (`UnexpectedAnswerError`: `operation`, `field`, the first issue's place, and `answer`).
 * `issues` says where each is: the property path, what was expected, the value.
 */
export class ResponseValidationError extends UnexpectedAnswerError {
  readonly issues: readonly ResponseIssue[];

  constructor(
    message: string,
    details: CallInfo & { status: number; issues: ResponseIssue[]; answer: unknown },
  ) {
    const first = details.issues[0];
    super(
      `${details.method} ${details.path}`,
      // "/workflow/status" is "workflow.status", as UnexpectedAnswerError names a field.
      first ? first.path.slice(1).replaceAll("/", ".") : "",
      first?.message ?? "",
      details.answer,
      { message, status: details.status },
    );
    this.issues = details.issues;
  }
}
ResponseValidationError.prototype.name = "ResponseValidationError";
