import { createRequire } from "node:module";
import { ConfigurationError } from "../errors/configuration-error.js";
import type { FetchFunction } from "./request.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A fetch through the proxy that HTTPS_PROXY / HTTP_PROXY name (lower case first, NO_PROXY
 * honoured, as npm, undici and curl read them), or undefined when neither is set: Node's fetch
 * ignores them. It is undici's own fetch with its EnvHttpProxyAgent (undici is an optional peer
 * dependency), imported on the first call only, so a client without a proxy loads nothing
 * more. The variables are read from `env` alone (the client's `env` option), never also from
 * process.env behind its back.
 */
export function proxyFetch(env: Env): FetchFunction | undefined {
  const httpsProxy = first(env, "https_proxy", "HTTPS_PROXY");
  const httpProxy = first(env, "http_proxy", "HTTP_PROXY");
  if (httpsProxy === undefined && httpProxy === undefined) return undefined;
  const noProxy = first(env, "no_proxy", "NO_PROXY");
  try {
    createRequire(import.meta.url).resolve("undici");
  } catch (error) {
    throw new ConfigurationError(
      `${httpsProxy ? "HTTPS_PROXY" : "HTTP_PROXY"} is set, and sending through a proxy needs the optional peer dependency undici; install it beside seqera-api-client (npm install undici@^7), or unset the variable.`,
      { cause: error },
    );
  }
  let loading: Promise<FetchFunction> | undefined;
  const load = async (): Promise<FetchFunction> => {
    const undici = await import("undici");
    // "" rather than undefined: undici would otherwise fall back to process.env.
    const dispatcher = new undici.EnvHttpProxyAgent({
      httpProxy: httpProxy ?? "",
      httpsProxy: httpsProxy ?? httpProxy ?? "",
      noProxy: noProxy ?? "",
    });
    return async (request, init) => {
      // undici's fetch takes its own Request class only, so the global one is taken apart.
      // Our bodies are small JSON or multipart, already whole: reading one costs nothing.
      const body = request.body === null ? undefined : await request.arrayBuffer();
      const response = await undici.fetch(request.url, {
        method: request.method,
        headers: [...request.headers],
        body,
        redirect: request.redirect,
        signal: init?.signal ?? undefined,
        dispatcher,
      });
      return response as unknown as Response;
    };
  };
  return async (request, init) => (await (loading ??= load()))(request, init);
}

function first(env: Env, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}
