import type { Emulator } from "../../src/testing/index.js";

/** A raw call to the emulator, as any HTTP client would make it, with the emulator's token. */
export function api(
  emulator: Emulator,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${emulator.token}`,
    ...init.headers,
  };
  let body: string | undefined;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }
  return fetch(`${emulator.url}${path}`, { method: init.method ?? "GET", headers, body });
}

/** The service's 400 body: a message ending in " - Error ID: <22 characters>". */
export const ERROR_ID = / - Error ID: [A-Za-z0-9]{22}$/;
