import { expect } from "vitest";
import { expectValid } from "./valid.js";
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

/**
 * A call that must answer `status` (default 200), validated against the operation's schema
 * (`operation` is "METHOD /template"); returns the parsed JSON body, if any.
 */
export async function expectAnswer(
  emulator: Emulator,
  operation: string,
  path: string,
  init: { body?: unknown; status?: number } = {},
): Promise<any> {
  const method = operation.split(" ")[0]!;
  const response = await api(emulator, path, { method, body: init.body });
  const text = await response.text();
  expect(response.status, `${operation} ${path}: ${text}`).toBe(init.status ?? 200);
  if (response.status !== 200 || !text) return undefined;
  const body: unknown = JSON.parse(text);
  expectValid(operation, body);
  return body;
}
