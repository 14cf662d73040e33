import { createSeqeraClient, ServerError } from "seqera-api-client";
import { startEmulator } from "seqera-api-client/testing";
import { expect, test } from "vitest";

test("compute envs, pipeline actions and failures behave as the service's do, with no handler", async () => {
  const emulator = await startEmulator({
    seed: {
      workspaces: [{ org: "acme", name: "genomics", id: 42 }],
      credentials: [{ id: "aws1", name: "aws", provider: "aws", workspaceId: 42 }],
      dataLinks: [
        {
          resourceRef: "s3://acme-raw",
          credentialsId: "aws1",
          credentialsError: "The AWS Access Key Id you provided does not exist in our records.",
          workspaceId: 42,
        },
      ],
    },
  });
  const client = createSeqeraClient({
    baseUrl: emulator.url,
    token: emulator.token,
    workspaceId: 42,
  });
  try {
    // A compute env reads back with the settings it was created with.
    const { computeEnvId } = await client.POST("/compute-envs", {
      body: {
        computeEnv: {
          name: "aws-fusion",
          platform: "aws-batch",
          credentialsId: "aws1",
          config: {
            discriminator: "aws-batch",
            region: "eu-west-1",
            workDir: "s3://acme-work/scratch",
            waveEnabled: true,
            fusion2Enabled: true,
            forge: { type: "SPOT", minCpus: 0, maxCpus: 256 },
          },
        },
      },
    });
    const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
      params: { path: { computeEnvId } },
    });
    expect(computeEnv?.config).toMatchObject({ waveEnabled: true, fusion2Enabled: true });
    emulator.state.computeEnvs.setStatus(computeEnvId, "AVAILABLE");

    // A GitHub action gets its webhook; triggering it launches a run.
    const { actionId } = await client.POST("/actions", {
      body: {
        name: "on-push",
        source: "github",
        launch: { pipeline: "https://github.com/acme/rnaseq", computeEnvId },
      },
    });
    const { action } = await client.GET("/actions/{actionId}", {
      params: { path: { actionId } },
    });
    expect(action?.hookUrl).toBe(
      `https://api.github.com/repos/acme/rnaseq/hooks/${action?.hookId}`,
    );
    const { workflowId } = await client.POST("/actions/{actionId}/launch", {
      params: { path: { actionId } },
      body: { params: { outdir: "s3://acme-results" } },
    });
    expect(emulator.state.runs.get(workflowId!)?.pipeline).toBe("https://github.com/acme/rnaseq");

    // A data link whose keys the cloud refuses is INVALID, and browsing it fails.
    const { dataLinks } = await client.GET("/data-links");
    expect(dataLinks?.[0]).toMatchObject({ status: "INVALID" });
    await expect(
      client.GET("/data-links/{dataLinkId}/browse", {
        params: { path: { dataLinkId: dataLinks![0]!.id! } },
      }),
    ).rejects.toBeInstanceOf(ServerError);
  } finally {
    await client.close();
    await emulator.close();
  }
});
