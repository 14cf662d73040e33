import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ConfigurationError,
  ForbiddenError,
  NameNotFoundError,
  find,
  launchPipeline,
  listWorkspaces,
} from "../../src/index.js";
import { nearNames } from "../../src/automation/names.js";
import type { Emulator } from "../../src/testing/index.js";
import { clientOf, seededEmulator, servedSince } from "./setup.js";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await seededEmulator({
    pipelines: [
      { name: "rnaseq", workspaceId: 42 },
      { name: "sarek", workspaceId: 42 },
      { name: "rnaseq", workspaceId: 43 },
    ],
    computeEnvs: [
      { name: "aws-prod", workspaceId: 42 },
      { name: "aws-dev", workspaceId: 42 },
    ],
    credentials: [{ name: "aws-keys", workspaceId: 42 }],
    datasets: [{ name: "samples", workspaceId: 42 }],
    secrets: [{ name: "NCBI_KEY", value: "k", workspaceId: 42 }],
    dataLinks: [
      { resourceRef: "s3://acme-raw", workspaceId: 42 },
      { resourceRef: "s3://acme-results", workspaceId: 42 },
    ],
    studios: [{ name: "analysis", workspaceId: 42, status: "running" }],
    labels: [
      { name: "nightly", workspaceId: 42 },
      { name: "team", value: "bio", workspaceId: 42 },
      { name: "team", value: "chem", workspaceId: 42 },
    ],
  });
});
afterAll(() => emulator.close());

describe("workspaces by name", () => {
  test("listWorkspaces gives the workspaces of the user's organizations", async () => {
    const workspaces = await listWorkspaces(clientOf(emulator));
    expect(workspaces.map((w) => [`${w.orgName}/${w.workspaceName}`, w.workspaceId])).toEqual(
      expect.arrayContaining([
        ["acme/prod", "42"],
        ["acme/dev", "43"],
        ["other/prod", "44"],
      ]),
    );
    // Organization-only entries are left out.
    expect(workspaces.every((w) => w.workspaceId != null)).toBe(true);
  });

  test('withWorkspace("org/workspace").resolveWorkspaceId() gives the id, asking once per client family', async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    await expect(client.withWorkspace("acme/dev").resolveWorkspaceId()).resolves.toBe("43");
    await expect(client.withWorkspace("other/prod").resolveWorkspaceId()).resolves.toBe("44");
    await expect(client.withWorkspace(" 42 ").resolveWorkspaceId()).resolves.toBe("42");
    await expect(client.withWorkspace(null).resolveWorkspaceId()).resolves.toBeUndefined();
    expect(servedSince(emulator, from)).toEqual(["UserInfo", "ListWorkspacesUser"]);
  });

  test("a workspace created since the list was kept is found with one more look", async () => {
    const client = clientOf(emulator);
    await client.withWorkspace("acme/dev").resolveWorkspaceId();
    emulator.state.workspaces.add({ org: "acme", name: "fresh", id: 45 });
    const from = emulator.requests.length;
    await expect(client.withWorkspace("acme/fresh").resolveWorkspaceId()).resolves.toBe("45");
    expect(servedSince(emulator, from)).toEqual(["UserInfo", "ListWorkspacesUser"]);
    await expect(listWorkspaces(client)).resolves.toContainEqual(
      expect.objectContaining({ workspaceId: "45" }),
    );
    expect(servedSince(emulator, from)).toHaveLength(2);
  });

  test("a missing workspace is a NameNotFoundError listing the near ones", async () => {
    const error = await clientOf(emulator)
      .withWorkspace("acme/prdo")
      .resolveWorkspaceId()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect(error).toMatchObject({ kind: "workspace", resourceName: "acme/prdo" });
    expect((error as NameNotFoundError).candidates[0]).toBe("acme/prod");
    expect((error as Error).message).toMatch(
      /No workspace named "acme\/prdo"; did you mean "acme\/prod"/,
    );
  });
});

describe("resources by name within a workspace", () => {
  test("each kind is found by name in the client's workspace", async () => {
    const client = clientOf(emulator);
    await expect(find.pipeline(client, "sarek")).resolves.toMatchObject({
      name: "sarek",
      workspaceId: 42,
    });
    await expect(find.computeEnv(client, "aws-dev")).resolves.toMatchObject({ name: "aws-dev" });
    await expect(find.credentials(client, "aws-keys")).resolves.toMatchObject({
      name: "aws-keys",
      provider: "aws",
    });
    await expect(find.dataset(client, "samples")).resolves.toMatchObject({ name: "samples" });
    await expect(find.secret(client, "NCBI_KEY")).resolves.toMatchObject({ name: "NCBI_KEY" });
    await expect(find.label(client, "nightly")).resolves.toMatchObject({ name: "nightly" });
    await expect(find.dataLink(client, "acme-raw")).resolves.toMatchObject({
      resourceRef: "s3://acme-raw",
    });
    await expect(find.studio(client, "analysis")).resolves.toMatchObject({
      statusInfo: { status: "running" },
    });
  });

  test("data links and studios: a missing name names the near ones, or is undefined when optional", async () => {
    const client = clientOf(emulator);
    await expect(find.dataLink(client, "acme-raws")).rejects.toThrow(
      'No data link named "acme-raws" in workspace 42; did you mean "acme-raw"?',
    );
    await expect(find.studio(client, "nothing", { optional: true })).resolves.toBeUndefined();
    await expect(
      find.studio(client.withWorkspace(43), "analysis", { optional: true }),
    ).resolves.toBeUndefined();
  });

  test("the same name in another workspace, by id or by org/workspace", async () => {
    const client = clientOf(emulator);
    const here = await find.pipeline(client, "rnaseq");
    const there = await find.pipeline(client.withWorkspace("acme/dev"), "rnaseq");
    expect(here.workspaceId).toBe(42);
    expect(there.workspaceId).toBe(43);
    expect(there.pipelineId).not.toBe(here.pipelineId);
    await expect(find.pipeline(client.withWorkspace(43), "rnaseq")).resolves.toEqual(there);
  });

  test("a workspace the user is not in answers 403", async () => {
    await expect(
      find.pipeline(clientOf(emulator).withWorkspace(999), "rnaseq"),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });

  test("a missing name is a NameNotFoundError with the near names", async () => {
    const error = await find.computeEnv(clientOf(emulator), "aws-prd").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect(error).toMatchObject({
      kind: "compute environment",
      resourceName: "aws-prd",
      workspaceId: "42",
      // aws-dev is three edits away: not near.
      candidates: ["aws-prod"],
    });
    expect((error as Error).message).toBe(
      'No compute environment named "aws-prd" in workspace 42; did you mean "aws-prod"?',
    );
  });

  test('labels: "name" is a plain label, "name=value" a resource label, each searched by its type as tw does', async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    // Only resource labels are named "team": the plain label "team" does not exist.
    const error = await find.label(client, "team").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NameNotFoundError);
    expect((error as Error).message).toMatch(/^No label named "team" in workspace 42/);
    await expect(find.label(client, "team=chem")).resolves.toMatchObject({
      name: "team",
      value: "chem",
    });
    const searches = emulator.requests
      .slice(from)
      .filter((r) => r.operationId === "ListLabels" && r.search.includes("search="))
      .map((r) => new URLSearchParams(r.search))
      .map((q) => `${q.get("search")} ${q.get("type")}`);
    expect(searches).toEqual(["team simple", "team resource"]);
    // A plain label of that name, added since, is found (the kept answer had none: asked again).
    const plain = emulator.state.labels.add({ name: "team", workspaceId: 42 });
    await expect(find.label(client, "team")).resolves.toMatchObject({ id: plain.id });
    emulator.state.labels.delete(plain.id);
  });

  test("lists are kept per client; a name missing from a kept list is looked up once more", async () => {
    const client = clientOf(emulator);
    await find.dataset(client, "samples");
    const from = emulator.requests.length;
    await find.dataset(client, "samples");
    expect(servedSince(emulator, from)).toEqual([]);
    // Created since the list was kept: found with one more list call.
    emulator.state.datasets.add({ name: "samples-2", workspaceId: 42 });
    await expect(find.dataset(client, "samples-2")).resolves.toMatchObject({ name: "samples-2" });
    expect(servedSince(emulator, from)).toEqual(["ListDatasetsV2"]);
    // Another client keeps its own lists.
    const other = clientOf(emulator);
    await find.dataset(other, "samples");
    expect(servedSince(emulator, from)).toEqual(["ListDatasetsV2", "ListDatasetsV2"]);
  });
});

describe("shared look-ups and kept lists", () => {
  test("concurrent look-ups share one request; one caller's abort fails that caller alone", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    emulator.setHandler("UserInfo", async () => {
      await held;
      return undefined;
    });
    try {
      const client = clientOf(emulator, { workspaceId: "acme/prod" });
      const from = emulator.requests.length;
      const first = new AbortController();
      const aborted = find
        .pipeline(client, "rnaseq", { signal: first.signal })
        .catch((e: unknown) => e);
      const other = find.pipeline(client, "sarek");
      while (!emulator.requests.slice(from).some((r) => r.operationId === "UserInfo")) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      first.abort(new Error("the first caller gave up"));
      expect(((await aborted) as Error).message).toBe("the first caller gave up");
      release();
      await expect(other).resolves.toMatchObject({ name: "sarek" });
      expect(servedSince(emulator, from).filter((op) => op === "UserInfo")).toEqual(["UserInfo"]);
    } finally {
      release();
      emulator.clearHandlers();
    }
  });

  test("a finder's kept list is dropped when another look-up of that kind fetched a newer one", async () => {
    const client = clientOf(emulator);
    const old = await find.computeEnv(client, "aws-prod");
    // Deleted and re-created under a new id, as a user does in the UI.
    emulator.state.computeEnvs.delete(old.id!);
    const recreated = emulator.state.computeEnvs.add({
      name: "aws-prod",
      workspaceId: 42,
      status: "AVAILABLE",
    });
    // The launch finds the new one (its own look-up of AVAILABLE ones is fetched now).
    const { workflowId } = await launchPipeline(client, "rnaseq", { computeEnv: "aws-prod" });
    expect(emulator.state.runs.get(workflowId)?.computeEnvId).toBe(recreated.id);
    await expect(find.computeEnv(client, "aws-prod")).resolves.toMatchObject({ id: recreated.id });
  });

  test("a name the same client deleted is looked up again: created anew, it answers its new id", async () => {
    const client = clientOf(emulator);
    const old = await find.computeEnv(client, "aws-dev");
    await client.DELETE("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId: old.id } },
    });
    // Created again under the same name (the seed stands in for this client's POST, which
    // makes the kept list stale the same way).
    const { id: computeEnvId } = emulator.state.computeEnvs.add({
      name: "aws-dev",
      workspaceId: 42,
    });
    const from = emulator.requests.length;
    await expect(find.computeEnv(client, "aws-dev")).resolves.toMatchObject({ id: computeEnvId });
    // One list, fetched because the create made the kept one stale.
    expect(servedSince(emulator, from)).toEqual(["ListComputeEnvs"]);
  });

  test("kept lists are bounded: past 100 names, the least recently used is fetched again", async () => {
    const client = clientOf(emulator);
    await find.pipeline(client, "rnaseq");
    for (let i = 0; i < 100; i++) {
      await find.pipeline(client, `missing-${i}`, { optional: true });
    }
    const from = emulator.requests.length;
    await find.pipeline(client, "rnaseq");
    expect(servedSince(emulator, from)).toEqual(["ListPipelines"]);
  });
});

describe("near names", () => {
  test("close by edit distance or containing each other, closest first, at most five", () => {
    expect(
      nearNames("rnaseq", ["rnaseqq", "RNASeq", "sarek", "nf-core-rnaseq", "atacseq"]),
    ).toEqual(["RNASeq", "rnaseqq", "nf-core-rnaseq"]);
    // Up to a third of the length in edits for long names; a part of the name (3+ letters) too.
    expect(nearNames("atacseq-v2", ["atacseq", "atac", "atacseq-v3"])).toEqual([
      "atacseq-v3",
      "atacseq",
      "atac",
    ]);
    expect(nearNames("x", ["a", "b", "c", "d", "e", "f", "g"])).toHaveLength(5);
    expect(nearNames("genomics", ["sarek", "viralrecon"])).toEqual([]);
  });
});

describe("the workspace belongs to the client", () => {
  test("a derived client sends its workspace's id; the parent keeps its own", async () => {
    const client = clientOf(emulator, { workspaceId: undefined });
    const from = emulator.requests.length;
    await client.withWorkspace("acme/dev").GET("/workflow");
    await client.withWorkspace(44).GET("/workflow");
    await client.withOptions({ workspaceId: "acme/prod" }).GET("/workflow");
    await client.GET("/workflow");
    const sent = emulator.requests.slice(from).filter((r) => r.operationId === "ListWorkflows");
    expect(sent.map((r) => new URLSearchParams(r.search).get("workspaceId"))).toEqual([
      "43",
      "44",
      "42",
      null,
    ]);
  });

  test("a bad workspace is refused when the client is derived, before any request", () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    expect(() => client.withWorkspace(-1)).toThrow(
      /^workspaceId must be a positive integer or "organization\/workspace", got -1\.$/,
    );
    expect(() => client.withWorkspace("acme")).toThrow(ConfigurationError);
    expect(emulator.requests.length).toBe(from);
  });

  test("a call that names a workspace is refused, not sent to the client's", async () => {
    const client = clientOf(emulator);
    const from = emulator.requests.length;
    for (const option of ["workspaceId", "workspace"]) {
      await expect(client.request("GET", "/workflow", { [option]: 43 } as {})).rejects.toThrow(
        `${option} (GET /workflow): a call does not take a workspace; use client.withWorkspace(idOrName) for calls in another workspace, or params.query.workspaceId for one call by id.`,
      );
    }
    expect(emulator.requests.length).toBe(from);
  });
});
