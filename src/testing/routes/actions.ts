import { randomInt } from "node:crypto";
import { isRecord } from "../../openapi/operations-document.js";
import { randomId, serviceTimestamp } from "../ids.js";
import type { Resource } from "../state/resources.js";
import { computeEnvConfigDto } from "./compute-envs.js";
import { bodyOf, FORBIDDEN, findIn, type RouteContext, type StateRoute } from "./context.js";
import { runRoutes } from "./runs.js";

const ACTIONS = "/actions";

/**
 * Pipeline actions are kept by rule (`kept`: list, describe, update, delete); these add what
 * the service does beyond keeping them: a created action is ACTIVE with its `config`, and a
 * GitHub one with the repository's webhook (`hookId`, `hookUrl`), as tower-cli's recorded
 * answers show; `POST /actions/{id}/launch` launches a run from the action's launch.
 */
export function actionRoutes(kept: Record<string, StateRoute>): Record<string, StateRoute> {
  return {
    async CreateAction(request, ctx) {
      const answer = await kept.CreateAction!(request, ctx);
      const id = (answer.body as { actionId?: string } | undefined)?.actionId;
      const action = id === undefined ? undefined : ctx.state.resources.get(ACTIONS, id);
      if (action) Object.assign(action.fields, serviceFields(action, ctx));
      return answer;
    },

    async LaunchAction(request, ctx) {
      const action = ctx.state.resources.get(ACTIONS, request.params.actionId);
      if (!action || action.workspaceId !== ctx.workspaceId) return FORBIDDEN;
      const { params } = bodyOf(request);
      // Its launch's `id` is the action's own record, not a saved launch to look up, and its
      // `computeEnv` the answer's view of `computeEnvId`.
      const {
        id: _,
        computeEnv: __,
        ...launch
      } = isRecord(action.fields.launch) ? action.fields.launch : {};
      const answer = await runRoutes.CreateWorkflowLaunch!(
        { ...request, body: { launch: withParams(launch, params) } },
        ctx,
      );
      const { workflowId } = (answer.body ?? {}) as { workflowId?: string };
      if (workflowId === undefined) return answer;
      const now = serviceTimestamp(new Date());
      Object.assign(action.fields, {
        lastSeen: now,
        event: { discriminator: "tower", timestamp: now, workflowId },
      });
      return answer;
    },
  };
}

/**
 * What the service fills in on a new action, by its source; its launch becomes a launch record
 * (an `id`, the compute env it runs in).
 */
function serviceFields(action: Resource, ctx: RouteContext): Record<string, unknown> {
  const launch = isRecord(action.fields.launch) ? action.fields.launch : {};
  const pipeline = typeof launch.pipeline === "string" ? launch.pipeline : undefined;
  const envId =
    typeof launch.computeEnvId === "string"
      ? launch.computeEnvId
      : ctx.state.computeEnvs.primary(ctx.workspaceId)?.id;
  const env = findIn(ctx.state.computeEnvs, envId, ctx);
  const common = {
    pipeline,
    status: "ACTIVE",
    launch: { ...launch, id: randomId(20), computeEnv: env && computeEnvConfigDto(ctx, env) },
  };
  if (action.fields.source === "github") {
    const hookId = String(randomInt(100_000_000, 999_999_999));
    const repository = /github\.com\/([^/]+\/[^/]+?)(?:\.git)?\/?$/.exec(pipeline ?? "")?.[1];
    const hookUrl = `https://api.github.com/repos/${repository ?? "unknown/unknown"}/hooks/${hookId}`;
    return {
      ...common,
      hookId,
      hookUrl,
      endpoint: hookUrl,
      config: { events: ["push"], discriminator: "github" },
    };
  }
  const query = ctx.workspaceId === undefined ? "" : `?workspaceId=${ctx.workspaceId}`;
  const endpoint = `${ctx.baseUrl}/actions/${action.id}/launch${query}`;
  return {
    ...common,
    endpoint,
    usageCmd: `curl -H "Content-Type: application/json" -H "Authorization: Bearer <YOUR ACCESS TOKEN>" ${endpoint} --data '{"params":{"foo":"bar"}}'`,
    config: { discriminator: "tower" },
  };
}

/** The action's launch with the trigger's `params` over its saved ones (`paramsText`, JSON). */
function withParams(launch: Record<string, unknown>, params: unknown): Record<string, unknown> {
  if (!isRecord(params) || Object.keys(params).length === 0) return launch;
  let saved: unknown;
  try {
    saved = typeof launch.paramsText === "string" ? JSON.parse(launch.paramsText) : {};
  } catch {
    saved = {};
  }
  return {
    ...launch,
    paramsText: JSON.stringify({ ...(isRecord(saved) ? saved : {}), ...params }),
  };
}
