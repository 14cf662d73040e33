import { createRequire } from "node:module";
import { isLoopback } from "../core/loopback.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { defaultFetch } from "./node-fetch.js";
import type { FetchFunction } from "./request.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A call's failure on its way through the proxy (the proxy down, refusing the tunnel, silent):
 * errorFromFailure says "through the proxy <origin>". The origin has no credentials.
 */
export class ProxyFailure extends Error {
  constructor(
    readonly proxy: string,
    cause: unknown,
  ) {
    super(`fetch failed through the proxy ${proxy}`, { cause });
  }
}

/** A proxy variable, checked: its URL, and its origin without credentials for messages. */
interface Proxy {
  url: string;
  origin: string;
}

/**
 * A fetch through the proxy that HTTPS_PROXY / HTTP_PROXY name (lower case first, as npm,
 * undici and curl read them), or undefined when neither is set: Node's fetch ignores them.
 * Read from `env` alone (the client's `env` option), never also from process.env, and checked
 * now: a malformed one is a ConfigurationError naming the variable, never its credentials.
 * Loopback hosts and those NO_PROXY names go straight, as with curl: the proxy would read a
 * plain-http token in clear. Calls through the proxy use undici's own fetch and ProxyAgent
 * (undici is an optional peer dependency), imported on the first such call only; their bodies
 * are streamed (sendingBody), never held whole.
 */
export function proxyFetch(env: Env): FetchFunction | undefined {
  const https = proxyVariable(env, "https_proxy", "HTTPS_PROXY");
  const http = proxyVariable(env, "http_proxy", "HTTP_PROXY");
  if (https === undefined && http === undefined) return undefined;
  const bypass = noProxy(env);
  try {
    createRequire(import.meta.url).resolve("undici");
  } catch (error) {
    throw new ConfigurationError(
      `${https ? "HTTPS_PROXY" : "HTTP_PROXY"} is set, and sending through a proxy needs the optional peer dependency undici; install it beside seqera-api-client (npm install undici@^7), or unset the variable.`,
      { cause: error },
    );
  }
  const agents = new Map<string, Promise<FetchFunction>>();
  const through = (proxy: Proxy): Promise<FetchFunction> => {
    let loaded = agents.get(proxy.url);
    if (!loaded) {
      loaded = import("undici").then((undici) => {
        const agent = new undici.ProxyAgent(proxy.url);
        return async (request, init) => {
          // undici's fetch takes its own Request class only, so the global one is taken apart.
          const body = request.body;
          const response = await undici.fetch(request.url, {
            method: request.method,
            headers: [...request.headers],
            redirect: request.redirect,
            signal: init?.signal ?? undefined,
            dispatcher: body === null ? agent : sendingBody(agent, body),
          });
          return response as unknown as Response;
        };
      });
      agents.set(proxy.url, loaded);
    }
    return loaded;
  };
  return async (request, init) => {
    const url = new URL(request.url);
    const proxy = url.protocol === "https:" ? (https ?? http) : http;
    if (proxy === undefined || isLoopback(url.hostname) || bypass(url)) {
      return defaultFetch(request, init);
    }
    try {
      return await (
        await through(proxy)
      )(request, init);
    } catch (error) {
      throw new ProxyFailure(proxy.origin, error);
    }
  };
}

/**
 * The agent, sending `body` as the request's body. undici's fetch clones every request it sends
 * so as to follow a redirect, which tees the body, and the branch the clone leaves behind is
 * never read: every byte of an upload stays in memory until the answer (nodejs/undici#4058;
 * 200 MB sent through the proxy cost 200 MB more). So fetch is given no body, and the body goes
 * in below it, where the connection reads it as a stream: redirects are followed by hand here,
 * each hop with a body of its own. fetch's `content-length: 0` for a POST without a body goes
 * with it; the length unknown, the body is sent chunked, as a stream body always was.
 */
function sendingBody(
  agent: import("undici").Dispatcher,
  body: ReadableStream<Uint8Array>,
): import("undici").Dispatcher {
  return agent.compose((dispatch) => (options, handler) => {
    const headers = Object.fromEntries(
      Object.entries(options.headers as Record<string, string>).filter(
        ([name]) => name.toLowerCase() !== "content-length",
      ),
    );
    // The dispatcher takes an AsyncIterable body (its docs), which its types leave out.
    return dispatch({ ...options, headers, body: body as unknown as Uint8Array }, handler);
  });
}

/** The first of the variables that is set, checked as a proxy URL. */
function proxyVariable(env: Env, ...names: string[]): Proxy | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (!value) continue;
    const bad = (what: string) =>
      new ConfigurationError(
        `${name} is not a proxy URL (${what}): give it as http://host:port, with user:password@ before the host if the proxy needs them, or unset it.`,
      );
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      // No cause: the URL parser's error quotes the value, credentials included.
      throw bad("it does not parse as a URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw bad("it needs http:// or https:// before the host");
    }
    if (!url.hostname) throw bad("it names no host");
    return { url: value, origin: url.origin };
  }
  return undefined;
}

/**
 * NO_PROXY (lower case first): comma-separated `host` (its subdomains too), `host:port`,
 * `.domain`, `*`.
 */
function noProxy(env: Env): (url: URL) => boolean {
  const entries = (env.no_proxy?.trim() || env.NO_PROXY?.trim() || "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => entry.toLowerCase());
  return (url) => {
    const host = url.hostname.toLowerCase();
    const port = url.port || (url.protocol === "https:" ? "443" : "80");
    return entries.some((entry) => {
      if (entry === "*") return true;
      const [name, entryPort] = entry.startsWith("[")
        ? [entry.slice(0, entry.indexOf("]") + 1), entry.split("]:")[1]]
        : entry.split(":");
      if (entryPort !== undefined && entryPort !== port) return false;
      const domain = name!.replace(/^\*?\./, "");
      return host === domain || host.endsWith(`.${domain}`);
    });
  };
}
