import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { api, ERROR_ID } from "./http.js";

let emulator: Emulator;
beforeAll(async () => {
  // Org 42 to describe; a primary compute env, so that a launch naming none is valid.
  emulator = await startEmulator({
    seed: { organizations: [{ id: 42, name: "acme" }], computeEnvs: [{ name: "primary" }] },
  });
});
afterAll(() => emulator.close());

async function expectInvalid(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const { message } = (await response.json()) as { message: string };
  expect(message).toMatch(ERROR_ID);
  expect(message).toMatch(detail);
}

describe("request validation against the schema", () => {
  test("max over 100 on an offset-paged list is a 400", async () => {
    await expectInvalid(await api(emulator, "/workflow?max=101"), /max/);
    expect((await api(emulator, "/workflow?max=100")).status).toBe(200);
  });

  test("a query parameter of the wrong type is a 400", async () => {
    await expectInvalid(
      await api(emulator, "/workflow?workspaceId=abc"),
      /workspaceId must be integer/,
    );
    await expectInvalid(await api(emulator, "/workflow?includeTotalSize=yes"), /must be boolean/);
  });

  test("an array query parameter is checked item by item against its enum", async () => {
    expect((await api(emulator, "/workflow?attributes=labels,optimized")).status).toBe(200);
    await expectInvalid(await api(emulator, "/workflow?attributes=labels,bogus"), /allowed values/);
  });

  test("a path parameter of the wrong type is a 400", async () => {
    await expectInvalid(await api(emulator, "/orgs/not-a-number"), /orgId must be integer/);
    expect((await api(emulator, "/orgs/42")).status).toBe(200);
  });

  test("a body property of the wrong type is a 400", async () => {
    const response = await api(emulator, "/workflow/launch", {
      method: "POST",
      body: { launch: { pipeline: 42 } },
    });
    await expectInvalid(response, /launch\/pipeline must be string/);
  });

  test("a missing required body and malformed JSON are 400s", async () => {
    await expectInvalid(
      await api(emulator, "/workflow/launch", { method: "POST" }),
      /Required Body/,
    );
    const malformed = await fetch(`${emulator.url}/workflow/launch`, {
      method: "POST",
      headers: { authorization: `Bearer ${emulator.token}`, "content-type": "application/json" },
      body: "{not json",
    });
    await expectInvalid(malformed, /Malformed JSON/);
  });

  test("a polymorphic body is checked against the variant its discriminator names", async () => {
    const create = (config: Record<string, unknown>) =>
      api(emulator, "/compute-envs", {
        method: "POST",
        body: { computeEnv: { name: "ce", platform: "aws-batch", config } },
      });
    expect((await create({ discriminator: "aws-batch", region: "eu-west-1" })).status).toBe(200);
    await expectInvalid(
      await create({ discriminator: "aws-batch", region: 1 }),
      /region must be string/,
    );
    await expectInvalid(await create({ discriminator: "no-such-platform" }), /allowed values/);
  });

  test("string patterns of the schema apply", async () => {
    const create = (name: string) =>
      api(emulator, "/orgs", {
        method: "POST",
        body: { organization: { name, fullName: "Acme" } },
      });
    expect((await create("acme-labs")).status).toBe(200);
    await expectInvalid(await create("acme labs!"), /organization\/name must match pattern/);
  });

  test("invalid requests are recorded with their status, valid ones with their body", async () => {
    const seen = emulator.requests.length;
    await api(emulator, "/workflow?max=500");
    await api(emulator, "/workflow/launch", {
      method: "POST",
      body: { launch: { pipeline: "hello" } },
    });
    const [invalid, valid] = emulator.requests.slice(seen);
    expect(invalid).toMatchObject({
      method: "GET",
      path: "/workflow",
      search: "max=500",
      status: 400,
    });
    expect(valid).toMatchObject({
      operationId: "CreateWorkflowLaunch",
      status: 200,
      body: { launch: { pipeline: "hello" } },
    });
  });
});
