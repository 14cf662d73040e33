import type { Secret } from "../state/secrets.js";
import {
  badRequest,
  bodyOf,
  conflict,
  FORBIDDEN,
  findIn,
  NO_CONTENT,
  ok,
  type RouteContext,
  type StateRoute,
} from "./context.js";

/** Pipeline secrets of a workspace, keyed by operationId; values are never answered. */
export const secretRoutes: Record<string, StateRoute> = {
  ListPipelineSecrets(_request, ctx) {
    const secrets = ctx.state.secrets.list(ctx.workspaceId);
    return ok({
      pipelineSecrets: secrets.map((s) => secretDto(ctx, s)),
      totalSize: secrets.length,
    });
  },

  DescribePipelineSecret(request, ctx) {
    const secret = findIn(ctx.state.secrets, request.params.secretId, ctx);
    return secret ? ok({ pipelineSecret: secretDto(ctx, secret) }) : FORBIDDEN;
  },

  CreatePipelineSecret(request, ctx) {
    const body = bodyOf(request);
    const name = body.name;
    if (typeof name !== "string" || name === "") return badRequest("Missing secret name");
    if (!/^[a-zA-Z_](?:[0-9A-Za-z]+|(_)(?!\1)){1,49}$/.test(name)) {
      return badRequest(`Invalid secret name '${name}'`);
    }
    if (ctx.state.secrets.byName(name, ctx.workspaceId)) {
      return conflict(`A secret named '${name}' already exists`);
    }
    const secret = ctx.state.secrets.add({
      name,
      workspaceId: ctx.workspaceId,
      ...(typeof body.value === "string" && { value: body.value }),
    });
    return ok({ secretId: secret.id });
  },

  UpdatePipelineSecret(request, ctx) {
    const secret = findIn(ctx.state.secrets, request.params.secretId, ctx);
    if (!secret) return FORBIDDEN;
    const value = bodyOf(request).value;
    if (typeof value === "string") ctx.state.secrets.update(secret.id, { value });
    return NO_CONTENT;
  },

  DeletePipelineSecret(request, ctx) {
    const secret = findIn(ctx.state.secrets, request.params.secretId, ctx);
    if (!secret) return FORBIDDEN;
    ctx.state.secrets.delete(secret.id);
    return NO_CONTENT;
  },
};

function secretDto(ctx: RouteContext, s: Secret): Record<string, unknown> {
  return ctx.dto("PipelineSecret", {
    id: s.id,
    name: s.name,
    dateCreated: s.dateCreated,
    lastUpdated: s.lastUpdated,
    lastUsed: s.lastUsed,
  });
}
