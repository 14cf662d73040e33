import { operations } from "../../generated/operations.js";
import { SeqeraApiError } from "./seqera-api-error.js";
/** Longest part of the answer quoted in the message: enough to recognise it, not a flood. */
const QUOTED_CHARS = 200;

/**
 * The service answered a call with success but without what the operation promises: a field
 * absent or null, or a status this client does not know. Going on would loop, or fail later
 * with a TypeError far from the cause. It is the service's answer, so a SeqeraApiError of the
 * call (`method`, `path`, `operationId`), with the answer as its `body`.
 */
export class UnexpectedAnswerError extends SeqeraApiError {
  /** The call, as "GET /workflow/{workflowId}". */
  readonly operation: string;
  /** What was missing or not understood, as a path in the answer: "workflow.status". */
  readonly field: string;
  /** The answer as received. */
  readonly answer: unknown;

  /** `told`: a message of a subclass's own, and the answer's status when known. */
  constructor(
    operation: string,
    field: string,
    expected: string,
    answer: unknown,
    told: { message?: string; status?: number } = {},
  ) {
    const [method = "", path = ""] = operation.split(" ");
    super(
      told.message ??
        `${operation} answered without a usable ${field} (expected ${expected}); the service sent ${quote(answer)}. ` +
          "The service or a proxy in front of it answered something else than the API describes: check the base URL (TOWER_API_ENDPOINT) and the server's version.",
      {
        method,
        path,
        operationId: operations[operation]?.operationId ?? operation,
        ...(told.status !== undefined && { status: told.status }),
      },
    );
    this.operation = operation;
    this.field = field;
    Object.defineProperty(this, "answer", { value: answer, enumerable: false });
  }
}
UnexpectedAnswerError.prototype.name = "UnexpectedAnswerError";

function quote(answer: unknown): string {
  const text = answer === undefined ? "nothing" : (JSON.stringify(answer) ?? String(answer));
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
}
