import type { Label } from "../state/labels.js";
import {
  badRequest,
  bodyOf,
  conflict,
  ok,
  paged,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { namedResource } from "./named-resource.js";

const labels = namedResource({
  store: (state) => state.labels,
  param: "labelId",
  noun: "label",
});

/** Labels of a workspace, keyed by operationId. */
export const labelRoutes: Record<string, StateRoute> = {
  ListLabels(request, ctx) {
    const type = request.query.type;
    const found = labels
      .search(request, ctx)
      .filter((l) => type === undefined || type === "all" || (type === "resource") === l.resource)
      .filter(
        (l) => request.query.isDefault === undefined || l.isDefault === request.query.isDefault,
      );
    return paged("labels", found, request, (l) => labelDto(ctx, l));
  },

  CreateLabel(request, ctx) {
    const body = bodyOf(request);
    const name = body.name;
    if (typeof name !== "string" || name === "") return badRequest("Missing label name");
    const value = typeof body.value === "string" ? body.value : undefined;
    const taken = ctx.state.labels
      .list(ctx.workspaceId)
      .some((l) => l.name === name && l.value === value);
    if (taken) return conflict(`A label named '${name}' already exists`);
    const label = ctx.state.labels.add({
      name,
      workspaceId: ctx.workspaceId,
      ...(value !== undefined && { value }),
      ...(typeof body.resource === "boolean" && { resource: body.resource }),
      ...(typeof body.isDefault === "boolean" && { isDefault: body.isDefault }),
    });
    return ok({
      id: label.id,
      name: label.name,
      resource: label.resource,
      isDefault: label.isDefault,
      ...(label.value !== undefined && { value: label.value }),
    });
  },

  UpdateLabel: labels.route((label, request, ctx) => {
    const body = bodyOf(request);
    ctx.state.labels.update(label.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.value === "string" && { value: body.value }),
      ...(typeof body.isDefault === "boolean" && { isDefault: body.isDefault }),
    });
    const { id, name, value, isDefault } = label;
    return ok(ctx.dto("UpdateLabelResponse", { id, name, value, isDefault }));
  }),

  DeleteLabel: labels.delete,
};

export function labelDto(ctx: RouteContext, l: Label): Record<string, unknown> {
  return ctx.dto("LabelDbDto", {
    id: l.id,
    name: l.name,
    value: l.value,
    resource: l.resource,
    isDefault: l.isDefault,
    isDynamic: false,
    isInterpolated: false,
    dateCreated: l.dateCreated,
  });
}

/** The labels with these ids that still exist. */
export function labelDtos(ctx: RouteContext, ids: number[]): Record<string, unknown>[] {
  return ids.flatMap((id) => {
    const label = ctx.state.labels.get(id);
    return label ? [labelDto(ctx, label)] : [];
  });
}
