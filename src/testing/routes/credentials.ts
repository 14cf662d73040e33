import { isRecord } from "../../openapi/operations-document.js";
import type { Credentials } from "../state/credentials.js";
import {
  badRequest,
  bodyOf,
  conflict,
  NO_CONTENT,
  ok,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { namedResource } from "./named-resource.js";

const stored = namedResource({
  store: (state) => state.credentials,
  param: "credentialsId",
  noun: "credentials",
});

/** Credentials of a workspace, keyed by operationId; their keys are never answered. */
export const credentialsRoutes: Record<string, StateRoute> = {
  ListCredentials(request, ctx) {
    const provider = request.query.platformId;
    const list = ctx.state.credentials
      .list(ctx.workspaceId)
      .filter((c) => provider === undefined || c.provider === provider);
    return ok({ credentials: list.map((c) => credentialsDto(ctx, c)) });
  },

  DescribeCredentials: stored.route((credentials, _request, ctx) =>
    ok({ ...ctx.sample(), credentials: credentialsDto(ctx, credentials) }),
  ),

  CreateCredentials(request, ctx) {
    const init = bodyOf(request).credentials;
    if (!isRecord(init)) return badRequest("Missing credentials");
    const name = init.name as string;
    if (ctx.state.credentials.byName(name, ctx.workspaceId)) {
      return conflict(`Credentials named '${name}' already exist`);
    }
    const credentials = ctx.state.credentials.add({
      name,
      workspaceId: ctx.workspaceId,
      provider: init.provider as string,
      ...(typeof init.description === "string" && { description: init.description }),
      keys: isRecord(init.keys) ? init.keys : {},
    });
    return ok({ credentialsId: credentials.id });
  },

  UpdateCredentials: stored.route((credentials, request, ctx) => {
    const update = bodyOf(request).credentials;
    if (isRecord(update)) {
      ctx.state.credentials.update(credentials.id, {
        ...(typeof update.name === "string" && { name: update.name }),
        ...(typeof update.description === "string" && { description: update.description }),
        ...(isRecord(update.keys) && { keys: update.keys }),
      });
    }
    return NO_CONTENT;
  }),

  DeleteCredentials: stored.delete,
};

function credentialsDto(ctx: RouteContext, c: Credentials): Record<string, unknown> {
  const out = ctx.dto("Credentials", {
    id: c.id,
    name: c.name,
    provider: c.provider,
    description: c.description,
    dateCreated: c.dateCreated,
    lastUpdated: c.lastUpdated,
    deleted: false,
  });
  // The service never sends the secret part back.
  delete out.keys;
  return out;
}
