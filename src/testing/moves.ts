/** What moves the emulator's resources on their own: `autoAdvance` and `runSteps.onList`. */
import { isActive } from "./state/runs.js";
import type { EmulatorState } from "./state/state.js";
import type { EmulatorRequest, EmulatorResponse } from "./types.js";

/** `autoAdvance`: a describe (a poll) moves what it describes one step. */
export function advanceDescribed(state: EmulatorState, request: EmulatorRequest): void {
  if (request.operationId === "DescribeWorkflow") {
    const run = state.runs.get(String(request.params.workflowId));
    if (run && isActive(run)) state.runs.advance(run.id);
  } else if (request.operationId === "DescribeDataStudio") {
    const studio = state.studios.get(String(request.params.sessionId));
    if (studio) state.studios.advance(studio.id);
  } else if (request.operationId === "DescribeComputeEnv") {
    const env = state.computeEnvs.get(String(request.params.computeEnvId));
    if (env?.status === "CREATING") state.computeEnvs.setStatus(env.id, "AVAILABLE");
  }
}

/** `runSteps.onList`: the active runs a list answered move one step, for the next poll. */
export function stepListed(state: EmulatorState, answer: EmulatorResponse): void {
  const { workflows } = answer.body as { workflows: { workflow: { id: string } }[] };
  for (const { workflow } of workflows) {
    const run = state.runs.get(workflow.id);
    if (run && isActive(run)) state.runs.advance(run.id);
  }
}
