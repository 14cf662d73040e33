import type { EmulatorOptions } from "seqera-api-client/testing";

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

/**
 * What the organization jobs expect: two workspaces, a credential in both, a stale run, and a
 * pipeline whose launches fail at FASTQC, killed. Runs move as the service's do while the jobs
 * poll them: a describe (`wait`) or a runs list (`watch`) moves the runs it answered one step.
 */
export function orgJobsEmulator(): EmulatorOptions {
  return {
    autoAdvance: true,
    runSteps: { onList: true },
    seed: {
      organizations: [{ name: "acme" }],
      workspaces: [
        { org: "acme", name: "prod", id: 7 },
        { org: "acme", name: "dev", id: 8 },
      ],
      members: [{ org: "acme", userName: "alice" }],
      participants: [{ workspace: "acme/prod", member: "alice", role: "launch" }],
      credentials: [
        { id: "cr7", name: "aws-prod", workspaceId: 7 },
        { id: "cr8", name: "aws-prod", workspaceId: 8 },
        { id: "gc8", name: "gcp", workspaceId: 8, provider: "google" },
      ],
      computeEnvs: [
        { id: "ce7", name: "batch", workspaceId: 7, credentialsId: "cr7", primary: true },
        { id: "sp7", name: "spot", workspaceId: 7, credentialsId: "cr7", status: "ERRORED" },
        { id: "ce8", name: "batch", workspaceId: 8, credentialsId: "cr8", primary: true },
      ],
      pipelines: [
        {
          name: "rnaseq",
          workspaceId: 7,
          launch: { computeEnvId: "ce7" },
          ending: {
            status: "FAILED",
            task: "FASTQC",
            exitStatus: 137,
            stderr: "reading\nsorting\nKilled",
          },
        },
      ],
      // Seeded RUNNING, each is two steps from its end: the clean-up's list takes one, the
      // watch's first poll the other, so the watch sees "fresh" go RUNNING -> SUCCEEDED.
      runs: [
        { workspaceId: 7, runName: "stale", status: "RUNNING", start: hoursAgo(30) },
        { workspaceId: 8, runName: "fresh", status: "RUNNING", start: hoursAgo(1) },
      ],
    },
  };
}
