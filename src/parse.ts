import type { ParseAs as TableParseAs } from "../generated/operations.js";
import { errorFromFailure } from "./errors/from-failure.js";
import { SeqeraApiError, type CallInfo } from "./errors/seqera-api-error.js";

/** How a caller may ask for a success body, overriding the operation table (openapi-fetch's names). */
export type ParseAs = "json" | "text" | "blob" | "arrayBuffer" | "stream";
/** The table's modes, plus "auto" (by Content-Type) for paths the table does not know. */
export type ParseMode = TableParseAs | ParseAs | "auto";

/** Statuses that legitimately carry no body even on operations that otherwise return JSON. */
const NO_CONTENT = new Set([202, 204, 205]);

export interface ReadContext extends CallInfo {
  signal?: AbortSignal;
  timeoutMs: number;
}

/**
 * Reads a successful response as the operation declares (text/plain and text/csv as string,
 * octet-stream as Blob, JSON parsed, no-content as undefined), or as a stream when asked. A body
 * that is not what the operation promises is an error, never a silent `undefined`.
 */
export async function readBody(
  response: Response,
  mode: ParseMode,
  call: ReadContext,
): Promise<unknown> {
  if (call.method === "HEAD") return undefined;
  if (/^text\/html\b/i.test(response.headers.get("content-type") ?? "")) {
    // The API never answers HTML: this is a login, proxy or error page in front of it.
    await response.body?.cancel();
    throw new SeqeraApiError(
      `${call.method} ${call.path} answered ${response.status} with an HTML page, not the API (a login or proxy page in front of it?)`,
      { ...call, status: response.status, response },
    );
  }
  if (mode === "stream") return response.body;
  try {
    switch (mode) {
      case "empty":
        // Drain, so the connection goes back to the pool.
        await response.arrayBuffer();
        return undefined;
      case "text":
        return await response.text();
      case "blob":
        return await response.blob();
      case "arrayBuffer":
        return await response.arrayBuffer();
      case "json":
        return parseJson(await response.text(), response, call);
      case "auto":
        return await readByContentType(response, call);
    }
  } catch (error) {
    if (error instanceof SeqeraApiError) throw error;
    throw errorFromFailure(error, call, call.signal, call.timeoutMs);
  }
}

function parseJson(text: string, response: Response, call: CallInfo): unknown {
  if (text === "") {
    if (NO_CONTENT.has(response.status)) return undefined;
    throw new SeqeraApiError(
      `${call.method} ${call.path} answered ${response.status} with an empty body where JSON was expected`,
      { ...call, status: response.status, response },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SeqeraApiError(
      `${call.method} ${call.path} answered ${response.status} with a body that is not JSON (${response.headers.get("content-type") ?? "no content type"})`,
      { ...call, status: response.status, response, cause: error },
    );
  }
}

async function readByContentType(response: Response, call: CallInfo): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  if (/[/+]json\b/i.test(type)) return parseJson(await response.text(), response, call);
  if (type.startsWith("text/")) return await response.text();
  const blob = await response.blob();
  return blob.size === 0 ? undefined : blob;
}
