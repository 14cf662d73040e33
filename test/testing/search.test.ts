import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmulator, type Emulator } from "../../src/testing/index.js";
import { expectAnswer } from "./http.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({
    rateLimit: false,
    seed: {
      labels: [
        { id: 1, name: "nightly", workspaceId: 42 },
        { id: 2, name: "team", value: "bio", workspaceId: 42 },
      ],
      runs: [
        {
          runName: "alpha",
          status: "FAILED",
          labelIds: [1],
          dateCreated: "2024-05-02T10:00:00Z",
          launch: { pipeline: "https://github.com/nf-core/rnaseq" },
          workspaceId: 42,
        },
        {
          runName: "beta",
          status: "SUCCEEDED",
          labelIds: [2],
          dateCreated: "2024-05-03T10:00:00Z",
          launch: { pipeline: "https://github.com/nf-core/sarek" },
          workspaceId: 42,
        },
        {
          runName: "gamma",
          status: "FAILED",
          dateCreated: "2024-04-30T23:59:59Z",
          launch: { pipeline: "https://github.com/nf-core/rnaseq" },
          workspaceId: 42,
          userName: "bob",
        },
        {
          runName: "delta",
          status: "RUNNING",
          dateCreated: "2024-05-31T12:00:00Z",
          launch: { pipeline: "https://github.com/nextflow-io/hello" },
          workspaceId: 42,
        },
      ],
    },
  });
});
afterAll(() => emulator.close());

async function names(search: string): Promise<string[]> {
  const query = new URLSearchParams({ workspaceId: "42", search });
  const body = await expectAnswer(emulator, "GET /workflow", `/workflow?${query}`);
  return body.workflows.map((w: { workflow: { runName: string } }) => w.workflow.runName);
}

describe("the runs list's search, as the web interface and tw take it", () => {
  test("newest first by submission date, without a search", async () => {
    expect(await names("")).toEqual(["delta", "beta", "alpha", "gamma"]);
  });

  test("free text matches part of the run name or project, case-insensitively", async () => {
    expect(await names("ALP")).toEqual(["alpha"]);
    expect(await names("rnaseq")).toEqual(["alpha", "gamma"]);
  });

  test("status:, repeated, means any of them", async () => {
    expect(await names("status:failed")).toEqual(["alpha", "gamma"]);
    expect(await names("status:FAILED status:RUNNING")).toEqual(["delta", "alpha", "gamma"]);
  });

  test("after: and before: take inclusive days of the submission date", async () => {
    expect(await names("after:2024-05-01")).toEqual(["delta", "beta", "alpha"]);
    expect(await names("before:2024-04-30")).toEqual(["gamma"]);
    expect(await names("after:2024-05-02 before:2024-05-03")).toEqual(["beta", "alpha"]);
    expect(await names("status:FAILED after:2024-05-01")).toEqual(["alpha"]);
  });

  test("label: by name, or name=value for a resource label", async () => {
    expect(await names("label:nightly")).toEqual(["alpha"]);
    expect(await names("label:team=bio")).toEqual(["beta"]);
    expect(await names("label:nightly label:team")).toEqual(["beta", "alpha"]);
  });

  test("field keywords and is:starred", async () => {
    const [alpha] = emulator.state.runs.list(42).filter((r) => r.runName === "alpha");
    expect(await names(`workflowId:${alpha!.id}`)).toEqual(["alpha"]);
    expect(await names("runName:gam")).toEqual(["gamma"]);
    expect(await names("projectName:sarek")).toEqual(["beta"]);
    expect(await names("userName:bob")).toEqual(["gamma"]);
    expect(await names("is:starred")).toEqual([]);
    await expectAnswer(
      emulator,
      "POST /workflow/{workflowId}/star",
      `/workflow/${alpha!.id}/star?workspaceId=42`,
    );
    expect(await names("is:starred")).toEqual(["alpha"]);
  });

  test("totalSize counts the matches, pages cut them", async () => {
    const body = await expectAnswer(
      emulator,
      "GET /workflow",
      "/workflow?workspaceId=42&search=status:FAILED&max=1",
    );
    expect(body).toMatchObject({ totalSize: 2, hasMore: true });
  });
});
