import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api } from "./http.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ tokens: ["token-a", "token-b"], servedVersions: ["1", "2"] });
});
afterAll(() => emulator.close());

async function expectForbiddenEmpty(response: Response): Promise<void> {
  expect(response.status).toBe(403);
  expect(await response.text()).toBe("");
}

describe("tokens and paths", () => {
  test("a known token is served", async () => {
    expect((await api(emulator, "/user-info")).status).toBe(200);
  });

  test("a missing token is 403 with an empty body", async () => {
    await expectForbiddenEmpty(await fetch(`${emulator.url}/user-info`));
  });

  test("an unknown or malformed token is 403 with an empty body", async () => {
    await expectForbiddenEmpty(
      await api(emulator, "/user-info", { headers: { authorization: "Bearer nope" } }),
    );
    await expectForbiddenEmpty(
      await api(emulator, "/user-info", { headers: { authorization: "token-a" } }),
    );
  });

  test("a revoked token is 403 from then on; other tokens are unaffected", async () => {
    const withB = { headers: { authorization: "Bearer token-b" } };
    expect((await api(emulator, "/user-info", withB)).status).toBe(200);
    emulator.revokeToken("token-b");
    await expectForbiddenEmpty(await api(emulator, "/user-info", withB));
    expect((await api(emulator, "/user-info")).status).toBe(200);
  });

  test("an unknown path, or a known path with another method, is 403 with an empty body", async () => {
    await expectForbiddenEmpty(await api(emulator, "/workflows"));
    await expectForbiddenEmpty(await api(emulator, "/workflow/abc/typo"));
    await expectForbiddenEmpty(await api(emulator, "/user-info", { method: "DELETE" }));
  });

  test("operations the schema declares public need no token", async () => {
    expect((await fetch(`${emulator.url}/service-info`)).status).toBe(200);
  });

  test("the token shows neither in the recorded requests nor in the emulator's inspection", () => {
    expect(emulator.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(emulator.requests)).not.toContain("token-a");
    expect(inspect(emulator, { depth: 5 })).not.toContain("token-a");
  });
});

describe("Accept-Version", () => {
  test("an absent header or a served version is accepted", async () => {
    expect((await api(emulator, "/user-info")).status).toBe(200);
    expect((await api(emulator, "/user-info", { headers: { "accept-version": "2" } })).status).toBe(
      200,
    );
  });

  test("a version not served is a 400 naming it", async () => {
    const response = await api(emulator, "/user-info", { headers: { "accept-version": "3" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "API version '3' is not supported" });
  });
});

describe("base path", () => {
  test("an Enterprise-style prefix is part of the URL and required", async () => {
    const prefixed = await startEmulator({ basePath: "/api" });
    try {
      expect(prefixed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      expect((await api(prefixed, "/user-info")).status).toBe(200);
      const unprefixed = await fetch(`http://127.0.0.1:${prefixed.port}/user-info`, {
        headers: { authorization: `Bearer ${prefixed.token}` },
      });
      expect(unprefixed.status).toBe(403);
      // A client joining base URL and path without the slash must not get through.
      const unjoined = await fetch(`http://127.0.0.1:${prefixed.port}/apiuser-info`, {
        headers: { authorization: `Bearer ${prefixed.token}` },
      });
      expect(unjoined.status).toBe(403);
      expect(prefixed.requests.map((r) => r.path)).toEqual([
        "/user-info",
        "/user-info",
        "/apiuser-info",
      ]);
    } finally {
      await prefixed.close();
    }
  });
});
