/**
 * One error base: everything the package throws for its own reasons is a SeqeraError; what the
 * service answered is a SeqeraApiError (an unusable answer included); a bad option or argument
 * is a ConfigurationError wherever it is given; docs/errors.md lists every class.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import * as main from "../../src/index.js";
import * as testing from "../../src/testing/index.js";
import {
  ConfigurationError,
  SeqeraApiError,
  SeqeraError,
  UnexpectedAnswerError,
  listRuns,
  waitForRun,
} from "../../src/index.js";
import { startEmulator } from "../../src/testing/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";

const server = await useTestServer();

const exportedErrorClasses = () =>
  Object.entries({ ...main, ...testing }).filter(
    ([, value]) => typeof value === "function" && value.prototype instanceof Error,
  ) as [string, ErrorConstructor][];

async function rejection(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected it to throw");
}

describe("one base", () => {
  test("every error class the package exports extends SeqeraError", () => {
    const classes = exportedErrorClasses();
    expect(classes.length).toBeGreaterThan(20);
    for (const [name, type] of classes) {
      if (type === SeqeraError) continue;
      expect(type.prototype, name).toBeInstanceOf(SeqeraError);
    }
  });

  test("docs/errors.md lists every exported error class", async () => {
    const doc = await readFile(new URL("../../docs/errors.md", import.meta.url), "utf8");
    const missing = exportedErrorClasses()
      .map(([name]) => name)
      .filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});

describe("what the service answered is a SeqeraApiError", () => {
  test("200 {} where waitForRun needs a run: an UnexpectedAnswerError, a SeqeraApiError of that call", async () => {
    server.reply({ body: {} });
    const error = await rejection(() => waitForRun(clientFor(server), "w1"));
    expect(error).toBeInstanceOf(UnexpectedAnswerError);
    expect(error).toBeInstanceOf(SeqeraApiError);
    expect(error).toMatchObject({
      method: "GET",
      path: "/workflow/{workflowId}",
      operationId: "DescribeWorkflow",
      field: "workflow",
    });
  });

  test("a page whose list is not an array: a SeqeraApiError of the listing", async () => {
    server.reply({ body: { workflows: "none", totalSize: 1 } });
    const error = await rejection(async () => {
      for await (const run of listRuns(clientFor(server))) void run;
    });
    expect(error).toBeInstanceOf(SeqeraApiError);
    expect(error).toMatchObject({ operationId: "ListWorkflows", status: 200 });
    expect((error as Error).message).toBe(
      'GET /workflow answered 200 with "workflows" as string where a list was expected',
    );
  });
});

describe("a bad option or argument is a ConfigurationError, before anything is sent", () => {
  const cases: [string, () => unknown, string][] = [
    [
      "waitForRun pollIntervalMs: -1",
      () => waitForRun(clientFor(server), "w1", { pollIntervalMs: -1 }),
      "pollIntervalMs must be a positive number of ms, got -1",
    ],
    [
      "listRuns after: not a date",
      () => listRuns(clientFor(server), { after: "yesterday" }).next(),
      'listRuns: `after` is a Date, an ISO 8601 date-time or "YYYY-MM-DD", got "yesterday"',
    ],
    [
      "a query value that is an object",
      () =>
        clientFor(server).GET("/workflow", {
          params: { query: { search: { status: "FAILED" } as unknown as string } },
        }),
      'Query parameter "search" must be a string, number or boolean, or an array of them.',
    ],
    [
      "a multipart body that is not an object",
      () =>
        clientFor(server).POST("/datasets/{datasetId}/upload", {
          params: { path: { datasetId: "d1" } },
          body: "a,b\n" as never,
        }),
      "UploadDatasetV2 takes a multipart body: an object such as { file: Blob }.",
    ],
    [
      "toComputeEnvRequest without a platform",
      () => main.toComputeEnvRequest({ name: "x" }),
      "toComputeEnvRequest: the compute environment has no name, platform or config; read it with GET /compute-envs/{computeEnvId}",
    ],
  ];
  test.each(cases)("%s", async (_, call, message) => {
    const error = await rejection(call);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toBe(message);
    expect(server.requests).toEqual([]);
  });

  test("the emulator's bad seed or fault rate: a ConfigurationError", async () => {
    const seed = await rejection(() =>
      startEmulator({ seed: { workspaces: [{ org: "acme", name: "w", id: 1 }] } }),
    );
    expect(seed).toBeInstanceOf(ConfigurationError);
    expect((seed as Error).message).toBe(
      'Workspace name "w": 2 to 40 letters, digits, - or _, as the service requires',
    );
    const emulator = await startEmulator();
    try {
      const rate = await rejection(() => emulator.faults.configure({ unavailableRate: 2 }));
      expect(rate).toBeInstanceOf(ConfigurationError);
    } finally {
      await emulator.close();
    }
  });
});
