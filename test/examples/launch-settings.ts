import { cancelRun, createSeqeraClient, launchPipeline, relaunchRun } from "seqera-api-client";

// TOWER_ACCESS_TOKEN and TOWER_API_ENDPOINT; the workspace by name (or TOWER_WORKSPACE_ID).
const client = createSeqeraClient({ workspaceId: "acme/prod" });

/** Launches "rnaseq" with some of tw's launch settings. */
export async function launchNightly() {
  const { workflowId, createdLabels } = await launchPipeline(client, "rnaseq", {
    computeEnv: "azure", // its work dir too, unless workDir is given
    params: { genome: "GRCm39" }, // deep-merged over the saved params
    labels: ["nightly", "team=bio"], // created when missing: see createdLabels
    stubRun: true,
    disableOptimization: true,
  });
  return { workflowId, createdLabels };
}

/** Resumes a run (the default, as tw), reruns it afresh, and cancels that rerun. */
export async function rerun(workflowId: string) {
  const resumed = await relaunchRun(client, workflowId);
  const afresh = await relaunchRun(client, workflowId, { resume: false });
  await cancelRun(client, afresh.workflowId);
  return { resumed: resumed.workflowId, afresh: afresh.workflowId };
}

/** Launches "rnaseq" with a params file, JSON or YAML as `--params-file` reads it. */
export async function launchFromFile(paramsFile: string) {
  const { workflowId } = await launchPipeline(client, "rnaseq", {
    paramsFile, // deep-merged over the saved params
    params: "genome: GRCm39", // a params document as text (JSON or YAML), merged over the file's
  });
  return workflowId;
}
