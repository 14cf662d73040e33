import { isRecord, loadDocument } from "../../openapi/operations-document.js";
import type { ComputeEnv } from "../state/compute-envs.js";
import {
  badRequest,
  bodyOf,
  findIn,
  NO_CONTENT,
  ok,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { labelDtos } from "./labels.js";
import { namedResource } from "./named-resource.js";

const computeEnvs = namedResource({
  store: (state) => state.computeEnvs,
  param: "computeEnvId",
  noun: "compute environment",
});

/** Compute environments, their status and the workspace's primary one, keyed by operationId. */
export const computeEnvRoutes: Record<string, StateRoute> = {
  ListComputeEnvs(request, ctx) {
    const status = request.query.status;
    const envs = ctx.state.computeEnvs
      .list(ctx.workspaceId)
      .filter((c) => status === undefined || c.status === String(status).toUpperCase());
    const workspace =
      ctx.workspaceId === undefined ? undefined : ctx.state.workspaces.get(ctx.workspaceId);
    return ok({
      computeEnvs: envs.map((c) =>
        ctx.dto("ListComputeEnvsResponse.Entry", {
          id: c.id,
          name: c.name,
          platform: c.platform,
          status: c.status,
          primary: c.primary,
          credentialsId: c.credentialsId,
          workDir: c.workDir,
          region: c.region,
          description: c.description,
          message: c.message,
          labels: labelDtos(ctx, c.labelIds),
          workspaceName: workspace?.name,
          visibility: "PRIVATE",
        }),
      ),
    });
  },

  DescribeComputeEnv: computeEnvs.route((env, _request, ctx) => {
    const workspace =
      env.workspaceId === undefined ? undefined : ctx.state.workspaces.get(env.workspaceId);
    return ok({
      computeEnv: ctx.dto("ComputeEnvResponseDto", {
        ...common(ctx, env),
        orgId: workspace?.orgId,
        workspaceId: env.workspaceId,
        labels: labelDtos(ctx, env.labelIds),
        deleted: false,
      }),
    });
  }),

  CreateComputeEnv(request, ctx) {
    const body = bodyOf(request);
    if (!isRecord(body.computeEnv)) return badRequest("Missing compute environment");
    const init = body.computeEnv;
    const name = init.name as string;
    const taken = computeEnvs.nameTaken(name, ctx);
    if (taken) return taken;
    if (
      typeof init.credentialsId === "string" &&
      !findIn(ctx.state.credentials, init.credentialsId, ctx)
    ) {
      return badRequest(`Unknown credentials id '${init.credentialsId}'`);
    }
    const { workDir, region, ...config } = isRecord(init.config) ? init.config : {};
    const env = ctx.state.computeEnvs.add({
      name,
      workspaceId: ctx.workspaceId,
      platform: init.platform as string,
      // The service provisions it first; a test moves it on (or `autoAdvance` does).
      status: "CREATING",
      primary: false,
      ...(typeof init.credentialsId === "string" && { credentialsId: init.credentialsId }),
      ...(typeof workDir === "string" && { workDir }),
      ...(typeof region === "string" && { region }),
      ...(typeof init.description === "string" && { description: init.description }),
      labelIds: (body.labelIds as number[] | undefined) ?? [],
      config,
    });
    return ok({ computeEnvId: env.id });
  },

  /** Renames it, or changes its description or credentials; its configuration stays. */
  UpdateComputeEnv: computeEnvs.route((env, request, ctx) => {
    const body = bodyOf(request);
    if (typeof body.name === "string" && body.name !== env.name) {
      const taken = computeEnvs.newName(body.name, ctx);
      if (typeof taken !== "string") return taken;
    }
    if (
      typeof body.credentialsId === "string" &&
      !findIn(ctx.state.credentials, body.credentialsId, ctx)
    ) {
      return badRequest(`Unknown credentials id '${body.credentialsId}'`);
    }
    ctx.state.computeEnvs.update(env.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.description === "string" && { description: body.description }),
      ...(typeof body.credentialsId === "string" && { credentialsId: body.credentialsId }),
    });
    return NO_CONTENT;
  }),

  DeleteComputeEnv: computeEnvs.delete,

  UpdateComputeEnvPrimary: computeEnvs.route((env, _request, ctx) => {
    ctx.state.computeEnvs.setPrimary(env.id);
    return NO_CONTENT;
  }),
};

function common(ctx: RouteContext, env: ComputeEnv): Record<string, unknown> {
  return {
    id: env.id,
    name: env.name,
    platform: env.platform,
    status: env.status,
    primary: env.primary,
    credentialsId: env.credentialsId,
    description: env.description,
    message: env.message,
    dateCreated: env.dateCreated,
    lastUpdated: env.lastUpdated,
    config: configDto(ctx, env),
  };
}

/** The compute env as a launch describes it (`ComputeEnv_ComputeConfig_`). */
export function computeEnvConfigDto(ctx: RouteContext, env: ComputeEnv): Record<string, unknown> {
  const workspace =
    env.workspaceId === undefined ? undefined : ctx.state.workspaces.get(env.workspaceId);
  return ctx.dto("ComputeEnv_ComputeConfig_", {
    ...common(ctx, env),
    orgId: workspace?.orgId,
    workspaceId: env.workspaceId,
  });
}

/** The platform's own config schema, tagged as the discriminator requires. */
function configDto(ctx: RouteContext, env: ComputeEnv): Record<string, unknown> {
  const mapping = (
    loadDocument().components.schemas.ComputeConfig!.discriminator as {
      mapping: Record<string, string>;
    }
  ).mapping;
  const ref = mapping[env.platform] ?? Object.values(mapping)[0]!;
  const schema = ref.split("/").pop()!;
  const tag = mapping[env.platform] ? env.platform : Object.keys(mapping)[0]!;
  const config = ctx.dto(schema, { ...env.config, workDir: env.workDir, discriminator: tag });
  if (env.region !== undefined && "region" in config) config.region = env.region;
  return config;
}
