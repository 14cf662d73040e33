import { isRecord } from "./document.js";
import type { EmulatorRequest, EmulatorResponse } from "./types.js";
import { isActive, type WorkflowRun, type WorkflowStore } from "./workflows.js";

/** A stateful operation: the request, the store, and a fresh sampled answer to fill in. */
export type StateRoute = (
  request: EmulatorRequest,
  store: WorkflowStore,
  sample: () => Record<string, unknown>,
) => EmulatorResponse;

/** The service answers 403, not 404, for a run that does not exist or is not the caller's. */
const FORBIDDEN: EmulatorResponse = { status: 403 };
const NO_CONTENT: EmulatorResponse = { status: 204 };

/** Workflow runs: launch, list, describe, cancel, delete, keyed by operationId. */
export const workflowRoutes: Record<string, StateRoute> = {
  CreateWorkflowLaunch(request, store) {
    const body = isRecord(request.body) ? request.body : {};
    const launch = isRecord(body.launch) ? body.launch : {};
    const run = store.add({ launch, ...workspaceOf(request) });
    return { status: 200, body: { workflowId: run.id } };
  },

  ListWorkflows(request, store, sample) {
    const search = typeof request.query.search === "string" ? request.query.search : "";
    const runs = store
      .list(request.query.workspaceId as number | undefined)
      .filter((r) => r.runName.includes(search) || r.pipeline.includes(search));
    const offset = (request.query.offset as number | undefined) ?? 0;
    const max = (request.query.max as number | undefined) ?? runs.length;
    const page = runs.slice(offset, offset + max);
    const template = sample();
    const element = (template.workflows as Record<string, unknown>[])[0]!;
    return {
      status: 200,
      body: {
        ...template,
        workflows: page.map((run) => describeRun(element, run)),
        totalSize: runs.length,
        hasMore: offset + page.length < runs.length,
      },
    };
  },

  DescribeWorkflow(request, store, sample) {
    const run = findRun(request, store);
    return run ? { status: 200, body: describeRun(sample(), run) } : FORBIDDEN;
  },

  CancelWorkflow(request, store) {
    const run = findRun(request, store);
    if (!run) return FORBIDDEN;
    // Cancelling a finished run changes nothing.
    if (isActive(run)) store.setStatus(run.id, "CANCELLED");
    return NO_CONTENT;
  },

  DeleteWorkflow(request, store) {
    const run = findRun(request, store);
    if (!run) return FORBIDDEN;
    if (isActive(run) && request.query.force !== true) {
      return {
        status: 400,
        body: { message: `Workflow ${run.id} is active; cancel it or delete with force` },
      };
    }
    store.delete(run.id);
    return NO_CONTENT;
  },

  DeleteWorkflowMany(request, store) {
    const body = isRecord(request.body) ? request.body : {};
    const ids = Array.isArray(body.workflowIds) ? (body.workflowIds as string[]) : [];
    const failedWorkflowIds = ids.filter((id) => {
      const run = store.get(id);
      const deletable = run !== undefined && (!isActive(run) || request.query.force === true);
      if (deletable) store.delete(id);
      return !deletable;
    });
    return { status: 200, body: { failedWorkflowIds } };
  },
};

function workspaceOf(request: EmulatorRequest): { workspaceId?: number } {
  const id = request.query.workspaceId;
  return typeof id === "number" ? { workspaceId: id } : {};
}

function findRun(request: EmulatorRequest, store: WorkflowStore): WorkflowRun | undefined {
  const run = store.get(String(request.params.workflowId));
  return run && run.workspaceId === workspaceOf(request).workspaceId ? run : undefined;
}

/**
 * Fills a sampled list element or describe answer with the run: the workflow's identity,
 * status and times, and the workspace (left out for the user's own context).
 */
function describeRun(template: Record<string, unknown>, run: WorkflowRun): Record<string, unknown> {
  const workflow = isRecord(template.workflow) ? template.workflow : {};
  const out: Record<string, unknown> = {
    ...template,
    workflow: {
      ...workflow,
      id: run.id,
      status: run.status,
      runName: run.runName,
      projectName: run.pipeline,
      repository: run.pipeline,
      dateCreated: run.dateCreated,
      submit: run.dateCreated,
      lastUpdated: run.lastUpdated,
      start: run.status === "SUBMITTED" ? null : run.dateCreated,
      complete: isActive(run) ? null : run.lastUpdated,
      success: run.status === "SUCCEEDED" ? true : isActive(run) ? null : false,
    },
  };
  if (run.workspaceId === undefined) {
    for (const key of ["workspaceId", "workspaceName", "orgId", "orgName"]) delete out[key];
  } else out.workspaceId = run.workspaceId;
  return out;
}
