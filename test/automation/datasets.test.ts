import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ForbiddenError, uploadDataset } from "../../src/index.js";
import type { Emulator } from "../../src/testing/index.js";
import { clientOf, seededEmulator } from "./setup.js";

let emulator: Emulator;
let dir: string;
beforeAll(async () => {
  emulator = await seededEmulator();
  dir = await mkdtemp(path.join(tmpdir(), "seqera-datasets-"));
});
afterAll(async () => {
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

const CSV = "sample,fastq_1\nS1,s3://reads/S1_R1.fastq.gz\n";

/** What the service serves at a version's URL (through the typed download call). */
async function served(datasetId: string, version: number, fileName: string) {
  return clientOf(emulator).GET("/datasets/{datasetId}/v/{version}/n/{fileName}", {
    params: { path: { datasetId, version: String(version), fileName }, query: { workspaceId: 42 } },
    parseAs: "text",
  });
}

describe("uploadDataset", () => {
  test("creates the dataset from a string and gives the URL of its first version", async () => {
    const uploaded = await uploadDataset(clientOf(emulator), {
      name: "samples",
      content: CSV,
      hasHeader: true,
      description: "Nightly samplesheet",
    });
    expect(uploaded).toEqual({
      datasetId: expect.any(String),
      version: 1,
      url: `${emulator.url}/workspaces/42/datasets/${uploaded.datasetId}/v/1/n/samples.csv`,
    });
    const dataset = emulator.state.datasets.get(uploaded.datasetId)!;
    expect(dataset).toMatchObject({
      name: "samples",
      description: "Nightly samplesheet",
      workspaceId: 42,
    });
    expect(dataset.versions[0]).toMatchObject({ hasHeader: true, mediaType: "text/csv" });
    await expect(served(uploaded.datasetId, 1, "samples.csv")).resolves.toBe(CSV);
  });

  test("a name already taken gets a new version of that dataset", async () => {
    const first = await uploadDataset(clientOf(emulator), { name: "batch", content: "a,b\n1,2\n" });
    const second = await uploadDataset(clientOf(emulator), {
      name: "batch",
      content: "a,b\n3,4\n",
    });
    expect(second).toMatchObject({ datasetId: first.datasetId, version: 2 });
    await expect(served(first.datasetId, 2, "batch.csv")).resolves.toBe("a,b\n3,4\n");
    expect(emulator.state.datasets.get(first.datasetId)!.versions[0]!.hasHeader).toBe(false);
  });

  test("from a file path (its name kept; .tsv is tab-separated) and from a Blob", async () => {
    const file = path.join(dir, "reads.tsv");
    await writeFile(file, "sample\tpath\nS1\ts3://x\n");
    const fromFile = await uploadDataset(clientOf(emulator).withWorkspace("acme/prod"), {
      name: "reads",
      file,
    });
    expect(fromFile.url).toMatch(/\/v\/1\/n\/reads\.tsv$/);
    expect(emulator.state.datasets.get(fromFile.datasetId)!.versions[0]!.mediaType).toBe(
      "text/tab-separated-values",
    );
    await expect(served(fromFile.datasetId, 1, "reads.tsv")).resolves.toBe(
      "sample\tpath\nS1\ts3://x\n",
    );

    const fromBlob = await uploadDataset(clientOf(emulator), {
      name: "blobbed",
      content: new Blob(["x,y\n"]),
      fileName: "input.csv",
    });
    await expect(served(fromBlob.datasetId, 1, "input.csv")).resolves.toBe("x,y\n");
  });

  test("a workspace the user is not in answers 403, and nothing is created", async () => {
    const before = emulator.state.datasets.all().length;
    await expect(
      uploadDataset(clientOf(emulator).withWorkspace(999), { name: "x", content: CSV }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    expect(emulator.state.datasets.all()).toHaveLength(before);
  });
});
