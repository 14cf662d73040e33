import type { Emulator, Seed } from "seqera-api-client/testing";

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000);

/** What the organization jobs expect: two workspaces, a credential in both, a stale run. */
export function orgJobsSeed(): Seed {
  return {
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
    pipelines: [{ name: "rnaseq", workspaceId: 7, launch: { computeEnvId: "ce7" } }],
    runs: [
      { workspaceId: 7, runName: "stale", status: "RUNNING", start: hoursAgo(30) },
      { workspaceId: 8, runName: "fresh", status: "RUNNING", start: hoursAgo(1) },
    ],
  };
}

/**
 * The service moving its runs on once a run was cancelled and the runs were listed again (the
 * watch began): every active run a step each `ms`.
 */
export function stepRuns(emulator: Emulator, ms: number): () => void {
  const timer = setInterval(() => {
    const served = emulator.requests.map((r) => r.operationId);
    const cancelled = served.indexOf("CancelWorkflow");
    if (cancelled < 0 || !served.slice(cancelled).includes("ListWorkflows")) return;
    for (const id of [7, 8]) {
      for (const run of emulator.state.runs.list(id)) {
        if (run.status === "SUBMITTED" || run.status === "RUNNING") {
          emulator.state.runs.advance(run.id);
        }
      }
    }
  }, ms);
  return () => clearInterval(timer);
}

/** Runs launched from now on (from the workspace's pipelines) end FAILED at FASTQC, killed. */
export function failLaunchedRuns(emulator: Emulator): void {
  for (const pipeline of emulator.state.pipelines.list(7)) {
    pipeline.ending = {
      status: "FAILED",
      task: "FASTQC",
      exitStatus: 137,
      stderr: "reading\nsorting\nKilled",
    };
  }
}
