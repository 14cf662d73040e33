import type { Seed } from "seqera-api-client/testing";

const ago = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();
const launch = { pipeline: "https://github.com/nf-core/rnaseq", computeEnvId: "ce1" };

/**
 * What the recipes of docs/recipes.md expect, for the library's versions (rollout-jobs.test.ts) and
 * the shell's (test/cli/recipes.test.ts): organization acme (prod 7, dev 8) and other (lab 9),
 * an obsolete label and secret in both, rnaseq (3.14.0) and sarek (its runs fail), a run that
 * completed two days ago (it cost 4.20) and one last month.
 */
export function orgJobsSeed(): Seed {
  return {
    organizations: [{ name: "acme" }, { name: "other" }],
    workspaces: [
      { org: "acme", name: "prod", id: 7 },
      { org: "acme", name: "dev", id: 8 },
      { org: "other", name: "lab", id: 9 },
    ],
    computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 7, primary: true }],
    labels: [
      { name: "obsolete", workspaceId: 7 },
      { name: "obsolete", workspaceId: 9 },
      { name: "keep", workspaceId: 8 },
    ],
    secrets: [
      { name: "OLD_TOKEN", value: "x", workspaceId: 8 },
      { name: "OLD_TOKEN", value: "x", workspaceId: 9 },
    ],
    pipelines: [
      { name: "rnaseq", workspaceId: 7, launch: { computeEnvId: "ce1", revision: "3.14.0" } },
      {
        name: "sarek",
        workspaceId: 7,
        launch: { computeEnvId: "ce1", revision: "3.4.0" },
        ending: { status: "FAILED", task: "MULTIQC", exitStatus: 2 },
      },
    ],
    runs: [
      {
        workspaceId: 7,
        runName: "monday",
        status: "SUCCEEDED",
        launch,
        cost: 4.2,
        ...window(50, 48),
      },
      {
        workspaceId: 7,
        runName: "last_month",
        status: "SUCCEEDED",
        launch,
        ...window(24 * 30, 24 * 30 - 1),
      },
    ],
  };
}

/** A run submitted and started `from` hours ago, completed `to` hours ago. */
function window(from: number, to: number) {
  return { dateCreated: ago(from), submit: ago(from), start: ago(from), complete: ago(to) };
}
