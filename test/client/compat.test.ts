import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkCompatibility, SCHEMA_VERSION } from "../../src/index.js";
import { compareVersions } from "../../src/core/versions.js";
import { SCHEMA_SHA256 } from "../../generated/version.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { clientFor } from "../helpers/client.js";
import pin from "../../schema/pin.json" with { type: "json" };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const serviceInfo = (apiVersion?: string) => ({
  body: { serviceInfo: { version: "25.1.0", apiVersion } },
});

describe("schema version", () => {
  test("exports the pinned release and its checksum", () => {
    expect(SCHEMA_VERSION).toBe(pin.version);
    expect(SCHEMA_SHA256).toBe(pin.sha256);
  });
});

describe("checkCompatibility", () => {
  test("reads GET /service-info and flags a server older than the schema", async () => {
    server.reply(serviceInfo("1.140.0"));
    const report = await checkCompatibility(clientFor(server));
    expect(server.requests.at(-1)!.pathname).toBe("/service-info");
    expect(report).toMatchObject({
      serverApiVersion: "1.140.0",
      schemaVersion: SCHEMA_VERSION,
      compatible: false,
    });
    expect(report.message).toContain(`older than API ${SCHEMA_VERSION}`);
  });

  test("accepts the same version", async () => {
    server.reply(serviceInfo(SCHEMA_VERSION));
    const report = await checkCompatibility(clientFor(server));
    expect(report.compatible).toBe(true);
    expect(report.message).toMatch(/matches/);
  });

  test("accepts a newer server, saying newer features are untyped", async () => {
    server.reply(serviceInfo("1.200.3"));
    const report = await checkCompatibility(clientFor(server));
    expect(report.compatible).toBe(true);
    expect(report.message).toMatch(/newer than API/);
  });

  test("says so when the server reports no apiVersion", async () => {
    server.reply(serviceInfo(undefined));
    const report = await checkCompatibility(clientFor(server));
    expect(report).toMatchObject({ serverApiVersion: undefined, compatible: false });
    expect(report.message).toMatch(/did not report its API version/);
  });

  test("propagates a failed service-info call as the usual error", async () => {
    server.reply({ status: 403 });
    await expect(checkCompatibility(clientFor(server))).rejects.toThrow(/Forbidden \(403\)/);
  });
});

describe("compareVersions", () => {
  test.each([
    ["1.85.0", "1.181.0", -1],
    ["1.181.0", "1.181.0", 0],
    ["1.181", "1.181.0", 0],
    ["1.181.1", "1.181.0", 1],
    ["2.0.0", "1.999.999", 1],
    ["v1.102.0", "1.102.0", 0],
  ])("%s vs %s", (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });
});
