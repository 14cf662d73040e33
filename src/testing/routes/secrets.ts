import type { Secret } from "../state/secrets.js";
import { bodyOf, NO_CONTENT, ok, type RouteContext, type StateRoute } from "./context.js";
import { namedResource } from "./named-resource.js";
import { newAjv } from "../peer-dependencies.js";

/**
 * Letters, digits and single underscores, as the service requires (PipelineSecret.name's
 * pattern), checked by the schema validator's linear-time engine: V8's backtracking takes
 * seconds on a 31-character name.
 */
const validSecretName = newAjv().compile({
  type: "string",
  pattern: "^[a-zA-Z_](?:[0-9A-Za-z]+|(_)(?!\\1)){1,49}$",
});

const secrets = namedResource({
  store: (state) => state.secrets,
  param: "secretId",
  noun: "secret",
  validName: (name) => validSecretName(name),
});

/** Pipeline secrets of a workspace, keyed by operationId; values are never answered. */
export const secretRoutes: Record<string, StateRoute> = {
  ListPipelineSecrets(_request, ctx) {
    const list = ctx.state.secrets.list(ctx.workspaceId);
    return ok({
      pipelineSecrets: list.map((s) => secretDto(ctx, s)),
      totalSize: list.length,
    });
  },

  DescribePipelineSecret: secrets.describe("pipelineSecret", secretDto),

  CreatePipelineSecret(request, ctx) {
    const body = bodyOf(request);
    const name = secrets.newName(body.name, ctx);
    if (typeof name !== "string") return name;
    const secret = ctx.state.secrets.add({
      name,
      workspaceId: ctx.workspaceId,
      ...(typeof body.value === "string" && { value: body.value }),
    });
    return ok({ secretId: secret.id });
  },

  UpdatePipelineSecret: secrets.route((secret, request, ctx) => {
    const value = bodyOf(request).value;
    if (typeof value === "string") ctx.state.secrets.update(secret.id, { value });
    return NO_CONTENT;
  }),

  DeletePipelineSecret: secrets.delete,
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
