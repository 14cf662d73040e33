/**
 * The response step of an attempt: an error status becomes its typed error (from the body's
 * first ERROR_BODY_BYTES, the rest left unread), a success is read per the operation table.
 */
import { readPrefix } from "./body.js";
import type { HandOver } from "./body.js";
import { errorFromResponse } from "./error-from-response.js";
import type { CallInfo } from "../errors/seqera-api-error.js";
import { readBody, type ParseMode } from "./parse.js";
import type { Redact } from "../core/redact.js";

/** What an error keeps of an error body: enough for any message the service sends. */
export const ERROR_BODY_BYTES = 64 * 1024;

export interface ResponseStep {
  call: CallInfo;
  mode: ParseMode;
  maxBytes: number;
  redact: Redact;
  /** The `workspaceId` the request carried, for a 403's message. */
  workspaceId: string | undefined;
}

export async function readResponse(
  response: Response,
  step: ResponseStep,
  handOver: HandOver,
): Promise<unknown> {
  if (!response.ok) {
    const text = await readPrefix(response.body, ERROR_BODY_BYTES);
    throw errorFromResponse(
      { response, text, workspaceId: step.workspaceId },
      step.call,
      step.redact,
    );
  }
  return readBody(response, step, handOver);
}
