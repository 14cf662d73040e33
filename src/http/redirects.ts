/**
 * Redirects, followed by hand (`redirect: "manual"`) so that the token and the body never leave
 * the API's origin. fetch's own following re-sends a 307's body to any origin and turns a POST
 * answered 302 into a GET there, which then resolves as a success.
 *
 * - GET and HEAD follow up to MAX_REDIRECTS hops anywhere http(s): once a hop leaves the API's
 *   origin (a presigned storage URL), the rest of the chain is sent without credentials.
 * - Other methods follow only 307/308 (method and body kept) within the same origin; a
 *   redirect elsewhere, or one that would turn them into a GET (301/302/303), is a RedirectError.
 * - A hop that carries the token (one within the API's origin) waits for a rate-limit slot of its
 *   own (`Sender.paced`): the service counts it as a call.
 */
import type { FetchFunction } from "./request.js";
import { RedirectError } from "../errors/redirect-error.js";
import type { CallInfo } from "../errors/seqera-api-error.js";
import type { Redact } from "../core/redact.js";
import type { PreparedRequest } from "./request.js";

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIALS = ["authorization", "cookie", "proxy-authorization"];

export interface Sender {
  fetch: FetchFunction;
  signal: AbortSignal;
  call: CallInfo;
  redact: Redact;
  /** Sends a hop that carries the token: through a rate-limit slot of its own, as a retry is. */
  paced(send: () => Promise<Response>): Promise<Response>;
}

/** One hop: the request to `url`, not following a redirect it answers. */
function sendTo(url: URL, headers: Headers, request: PreparedRequest, sender: Sender) {
  // The signal goes to fetch, not into the Request: building a Request with one costs a
  // listener and a controller of its own, and fetch makes its own Request from both anyway.
  const { method, body } = request;
  const init: RequestInit = { method, headers, body, redirect: "manual" };
  return sender.fetch(new Request(url, init), { signal: sender.signal });
}

/** The request as prepared, to the API server: its response is the API's own answer. */
export function sendRequest(request: PreparedRequest, sender: Sender): Promise<Response> {
  return sendTo(new URL(request.url), request.headers, request, sender);
}

/** The final response, from the API server's first one: redirects followed as the rules above say. */
export async function followRedirects(
  first: Response,
  request: PreparedRequest,
  sender: Sender,
): Promise<Response> {
  const { method } = request;
  let url = new URL(request.url);
  let headers = request.headers;
  let response = first;
  // Bodiless reads may follow a redirect anywhere (without credentials); anything else stays.
  const mayLeaveOrigin = method === "GET" || method === "HEAD";
  for (let hop = 1; ; hop++) {
    const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
    if (location === null) return response;
    await response.body?.cancel().catch(() => {});
    const target = resolve(location, url);
    const status = response.status;
    const refuse = (why: string) => {
      const shown = target ? sender.redact(`${target.origin}${target.pathname}`) : "an invalid URL";
      return new RedirectError(
        `${method} ${sender.call.path} was redirected (${status}) to ${shown}: ${why}`,
        { ...sender.call, status, location: shown },
      );
    };
    if (target === undefined || (target.protocol !== "https:" && target.protocol !== "http:")) {
      throw refuse("not an http(s) URL, not followed.");
    }
    if (hop > MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects, not followed.`);
    if (!mayLeaveOrigin) {
      if (target.origin !== url.origin) {
        throw refuse(
          `another origin, not followed: neither the token nor the request body leave ${url.origin}.`,
        );
      }
      if (status !== 307 && status !== 308) {
        throw refuse(`following it would turn the ${method} into a GET, so it was not followed.`);
      }
    }
    if (target.origin !== url.origin && headers === request.headers) {
      headers = new Headers(headers);
      for (const name of CREDENTIALS) headers.delete(name);
    }
    url = target;
    const next = () => sendTo(target, headers, request, sender);
    // The server counts every request that carries the token, a redirect's as any other.
    response = await (headers.has("authorization") ? sender.paced(next) : next());
  }
}

function resolve(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}
