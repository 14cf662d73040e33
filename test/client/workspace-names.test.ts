import { afterAll, beforeAll, expect, test } from "vitest";
import { createSeqeraClient, NameNotFoundError, ConfigurationError } from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { seededEmulator, servedSince } from "../automation/setup.js";

// acme/prod is 42, acme/dev 43, other/prod 44 (see ../automation/setup.ts).
let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator();
});
afterAll(() => emulator.close());

const clientWith = (env: Record<string, string>, options = {}) =>
  createSeqeraClient({
    baseUrl: emulator.url,
    token: emulator.token,
    rateLimit: false,
    env,
    ...options,
  });

const sentWorkspaceIds = (from: number) =>
  emulator.requests
    .slice(from)
    .filter((r) => r.operationId === "ListWorkflows")
    .map((r) => new URLSearchParams(r.search).get("workspaceId"));

test("TOWER_WORKSPACE_ID=org/workspace, as tw takes it, is sent as that workspace's id", async () => {
  const client = clientWith({ TOWER_WORKSPACE_ID: "acme/dev" });
  const from = emulator.requests.length;
  await client.GET("/workflow");
  await client.GET("/workflow");
  expect(sentWorkspaceIds(from)).toEqual(["43", "43"]);
  // The name is looked up once per client, and only for operations that take a workspace.
  await client.GET("/user-info");
  expect(servedSince(emulator, from)).toEqual([
    "UserInfo",
    "ListWorkspacesUser",
    "ListWorkflows",
    "ListWorkflows",
    "UserInfo",
  ]);
});

test("a derived client's workspace wins over the client's; a call's own workspaceId needs no lookup", async () => {
  const client = clientWith({}, { workspaceId: "acme/prod" });
  const from = emulator.requests.length;
  await client.withWorkspace("other/prod").GET("/workflow");
  await client.withWorkspace(43).GET("/workflow");
  await client.GET("/workflow", { params: { query: { workspaceId: 42 } } });
  expect(sentWorkspaceIds(from)).toEqual(["44", "43", "42"]);
  // The derived client looked the names up for its parent too: once.
  expect(servedSince(emulator, from).filter((id) => id === "UserInfo")).toHaveLength(1);
});

test("a workspace name that does not exist fails before the call, naming the near ones", async () => {
  const client = clientWith({ TOWER_WORKSPACE_ID: "acme/prd" });
  const from = emulator.requests.length;
  const error = await client.GET("/workflow").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NameNotFoundError);
  expect((error as Error).message).toMatch(/acme\/prd/);
  expect((error as Error).message).toMatch(/acme\/prod/);
  expect(servedSince(emulator, from)).not.toContain("ListWorkflows");
});

test("a bad derived workspace is a ConfigurationError naming the option", () => {
  const client = clientWith({});
  expect(() => client.withWorkspace("not a workspace")).toThrow(ConfigurationError);
  expect(() => client.withOptions({ workspaceId: -1 })).toThrow(
    /^workspaceId must be a positive integer or "organization\/workspace", got -1\.$/,
  );
});
