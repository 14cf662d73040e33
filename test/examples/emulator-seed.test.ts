import { createSeqeraClient } from "seqera-api-client";
import { startEmulator } from "seqera-api-client/testing";
import { expect, test } from "vitest";

test("a seeded workspace answers as the service would", async () => {
  const emulator = await startEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42 }], // the first one is primary
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: "acme/genomics",
          launch: { computeEnvId: "ce1", paramsText: '{"outdir":"s3://out"}' },
        },
      ],
      labels: [{ id: 7, name: "nightly", workspaceId: 42 }],
      runs: [
        { workspaceId: 42, status: "FAILED", labelIds: [7], dateCreated: "2024-05-02T10:00:00Z" },
        { workspaceId: 42, status: "FAILED", dateCreated: "2024-04-01T10:00:00Z" },
        { workspaceId: 42, status: "SUCCEEDED", dateCreated: "2024-05-03T10:00:00Z" },
      ],
    },
  });
  const client = createSeqeraClient({ baseUrl: emulator.url, token: emulator.token });
  try {
    const { pipelines } = await client.GET("/pipelines", {
      params: { query: { workspaceId: 42, search: "rna" } },
    });
    const { launch } = await client.GET("/pipelines/{pipelineId}/launch", {
      params: { path: { pipelineId: pipelines![0]!.pipelineId! }, query: { workspaceId: 42 } },
    });
    expect(launch).toMatchObject({
      paramsText: '{"outdir":"s3://out"}',
      computeEnv: { id: "ce1" },
    });

    const { workflows } = await client.GET("/workflow", {
      params: {
        query: {
          workspaceId: 42,
          search: "status:FAILED after:2024-05-01",
          attributes: ["labels"],
        },
      },
    });
    expect(workflows!.map((w) => w.labels?.[0]?.name)).toEqual(["nightly"]);
  } finally {
    await client.close();
    await emulator.close();
  }
});
