/** A file with every kind plan and apply support, as seqerakit writes it, and its variables. */
export const ENV = { AWS_KEY: "AKIA123", AWS_SECRET: "s3cr3t-value", TOKEN: "tok-value" };

export const FILE = `
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
