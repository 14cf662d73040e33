import { expect, test } from "vitest";
import { applyPlan, exportResources, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";
import { ENV, EXPORTED_ENV, FILE } from "./files.js";

/** FILE as exported: no workspace, secret values as variables, references by name. */
const EXPORTED = `labels:
  - name: team
    value: genomics
credentials:
  - name: aws-keys
    type: aws
    access-key: \$AWS_KEYS_ACCESS_KEY
    secret-key: \$AWS_KEYS_SECRET_KEY
    assume-role-arn: \$AWS_KEYS_ASSUME_ROLE_ARN
secrets:
  - name: API_TOKEN
    value: \$API_TOKEN_VALUE
compute-envs:
  - name: aws-eu
    type: aws-batch
    config-mode: forge
    work-dir: s3://bucket/work
    region: eu-west-1
    fusion-v2: true
    wave: true
    max-cpus: 500
    credentials: aws-keys
pipelines:
  - name: hello
    url: https://github.com/nextflow-io/hello
    params:
      outdir: s3://bucket/out
    revision: master
    compute-env: aws-eu
datasets:
  - name: samples
    description: the samples
`;

test("an export applied to an empty workspace makes a copy that the export plans nothing for", async () => {
  await withEmulator(seededEmulator({}, { autoAdvance: true }), async (emu) => {
    const client = clientOf(emu);
    await applyPlan(client, await planResources(client, [FILE], { env: ENV }));
    const exported = await exportResources(client);
    expect(exported).toBe(EXPORTED);
    // Secret values are variables to set: never the value, which the service does not answer.
    expect(exported).not.toContain("s3cr3t-value");
    const env = EXPORTED_ENV;
    const dev = client.withWorkspace("acme/dev");
    const copy = await applyPlan(dev, await planResources(dev, [exported], { env }));
    expect(copy.failed).toBeUndefined();
    expect(copy.applied).toHaveLength(6);
    expect(await exportResources(dev)).toBe(exported);
    expect((await planResources(dev, [exported], { env })).pending).toBe(0);
    expect((await planResources(client, [exported], { env })).pending).toBe(0);
  });
});

test("--kinds exports those kinds only; an unknown one is refused", async () => {
  const emu = await seededEmulator({
    secrets: [{ name: "TOKEN", workspaceId: 42 }],
    labels: [{ name: "team", value: "bio", workspaceId: 42 }],
  });
  try {
    const client = clientOf(emu);
    expect(await exportResources(client, { kinds: ["secrets"] })).toBe(
      "secrets:\n  - name: TOKEN\n    value: $TOKEN_VALUE\n",
    );
    await expect(exportResources(client, { kinds: ["secret"] })).rejects.toThrow(
      "Cannot export secret: the kinds are participants, labels, credentials, secrets, compute-envs, pipelines, datasets",
    );
  } finally {
    await emu.close();
  }
});
