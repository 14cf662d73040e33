import { readFile } from "node:fs/promises";
import { applyPlan, createSeqeraClient, planResources } from "seqera-api-client";

/**
 * Brings the workspaces a seqerakit file names to what it says, and returns what changed. The
 * plan is a value: check it before applying (here, no resource may be replaced).
 */
export async function applyWorkspaceFile(file: string) {
  const client = createSeqeraClient(); // TOWER_ACCESS_TOKEN, TOWER_API_ENDPOINT
  const plan = await planResources(client, [{ file, text: await readFile(file, "utf8") }]);
  const replaced = plan.steps.filter((step) => step.action === "replace");
  if (replaced.length > 0) {
    throw new Error(`Would replace ${replaced.map((s) => `${s.kind} ${s.name}: ${s.reason}`)}`);
  }
  const result = await applyPlan(client, plan);
  if (result.failed) throw result.failed.error; // applied and notAttempted say the rest
  return plan.steps.map((step) => `${step.action} ${step.kind} ${step.name}`);
}
