import { expect, test } from "vitest";
import { applyPlan, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator } from "../setup.js";

const ENV = { AWS_KEY: "AKIA123", AWS_SECRET: "s3cr3t-value", TOKEN: "tok-value" };

/** A file with every kind plan and apply support, as seqerakit writes it. */
const FILE = `
labels:
  - name: team
    value: genomics
    workspace: acme/prod
secrets:
  - name: API_TOKEN
    value: $TOKEN
    workspace: acme/prod
credentials:
  - type: aws
    name: aws-keys
    workspace: acme/prod
    access-key: \${AWS_KEY}
    secret-key: $AWS_SECRET
---
compute-envs:
  - type: aws-batch
    config-mode: forge
    name: aws-eu
    workspace: acme/prod
    credentials: aws-keys
    region: eu-west-1
    work-dir: s3://bucket/work
    max-cpus: 500
    fusion-v2: true
    wave: true
    on_exists: update
pipelines:
  - name: hello
    url: https://github.com/nextflow-io/hello
    workspace: acme/prod
    compute-env: aws-eu
    revision: master
    params:
      outdir: s3://bucket/out
    on_exists: update
datasets:
  - name: samples
    description: the samples
    workspace: acme/prod
`;

test("apply creates every resource in order of dependence, and a second plan has nothing to do", async () => {
  const emu = await seededEmulator({}, { autoAdvance: true });
  try {
    const client = clientOf(emu);
    const plan = await planResources(client, [{ text: FILE, file: "acme.yml" }], { env: ENV });
    expect(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`)).toEqual([
      "create labels team",
      "create credentials aws-keys",
      "create secrets API_TOKEN",
      "create compute-envs aws-eu",
      "create pipelines hello",
      "create datasets samples",
    ]);
    const secrets = JSON.stringify(plan);
    expect(secrets).not.toContain("s3cr3t-value");
    expect(secrets).not.toContain("tok-value");
    const result = await applyPlan(client, plan);
    expect(result.failed).toBeUndefined();
    expect(result.applied).toHaveLength(6);
    const again = await planResources(client, [{ text: FILE, file: "acme.yml" }], { env: ENV });
    expect(again.steps.filter((s) => s.action !== "unchanged")).toEqual([]);
    expect(again.pending).toBe(0);
  } finally {
    await emu.close();
  }
});
