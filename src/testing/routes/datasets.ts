import type { Dataset, DatasetVersion } from "../state/datasets.js";
import {
  badRequest,
  bodyOf,
  conflict,
  FORBIDDEN,
  findIn,
  matches,
  NO_CONTENT,
  ok,
  page,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { labelDtos } from "./labels.js";

/** Datasets, their uploaded versions and the URLs launches take, keyed by operationId. */
export const datasetRoutes: Record<string, StateRoute> = {
  ListDatasetsV2(request, ctx) {
    const datasets = ctx.state.datasets
      .list(ctx.workspaceId)
      .filter((d) => matches(d.name, request));
    return ok({
      datasets: page(datasets, request).map((d) => datasetDto(ctx, d)),
      totalSize: datasets.length,
    });
  },

  DescribeDatasetV2(request, ctx) {
    const dataset = findIn(ctx.state.datasets, request.params.datasetId, ctx);
    return dataset ? ok({ dataset: datasetDto(ctx, dataset) }) : FORBIDDEN;
  },

  CreateDatasetV2(request, ctx) {
    const body = bodyOf(request);
    const name = body.name;
    if (typeof name !== "string" || name === "") return badRequest("Missing dataset name");
    if (ctx.state.datasets.byName(name, ctx.workspaceId)) {
      return conflict(`A dataset named '${name}' already exists`);
    }
    const dataset = ctx.state.datasets.add({
      name,
      workspaceId: ctx.workspaceId,
      ...(typeof body.description === "string" && { description: body.description }),
    });
    return ok({ dataset: datasetDto(ctx, dataset) });
  },

  UpdateDatasetV2(request, ctx) {
    const dataset = findIn(ctx.state.datasets, request.params.datasetId, ctx);
    if (!dataset) return FORBIDDEN;
    const body = bodyOf(request);
    ctx.state.datasets.update(dataset.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.description === "string" && { description: body.description }),
    });
    return NO_CONTENT;
  },

  DeleteDatasetV2(request, ctx) {
    const dataset = findIn(ctx.state.datasets, request.params.datasetId, ctx);
    if (!dataset) return FORBIDDEN;
    ctx.state.datasets.delete(dataset.id);
    return NO_CONTENT;
  },

  async UploadDatasetV2(request, ctx) {
    const dataset = findIn(ctx.state.datasets, request.params.datasetId, ctx);
    if (!dataset) return FORBIDDEN;
    const file = bodyOf(request).file;
    if (!(file instanceof Blob)) return badRequest("Missing file");
    const version = ctx.state.datasets.upload(dataset.id, {
      fileName: file instanceof File && file.name ? file.name : "samples.csv",
      content: new Uint8Array(await file.arrayBuffer()),
      ...(file.type && { mediaType: file.type }),
      hasHeader: request.query.header !== false,
    });
    return ok({ version: versionDto(ctx, dataset, version) });
  },

  ListDatasetVersionsV2(request, ctx) {
    const dataset = findIn(ctx.state.datasets, request.params.datasetId, ctx);
    if (!dataset) return FORBIDDEN;
    const mimeType = request.query.mimeType;
    const versions = dataset.versions
      .filter((v) => mimeType === undefined || v.mediaType === mimeType)
      .reverse();
    return ok({
      versions: versions.map((v) => versionDto(ctx, dataset, v)),
      totalSize: versions.length,
    });
  },

  DownloadDatasetV2(request, ctx) {
    const dataset = findIn(ctx.state.datasets, request.params.datasetId, ctx);
    if (!dataset) return FORBIDDEN;
    const version = dataset.versions.find(
      (v) => String(v.version) === request.params.version && v.fileName === request.params.fileName,
    );
    if (!version) {
      return { status: 404, body: { message: "Dataset version not found" } };
    }
    return { status: 200, body: version.content, headers: { "content-type": version.mediaType } };
  },
};

/** The URL a launch takes as its input, in the service's form. */
export function datasetUrl(ctx: RouteContext, dataset: Dataset, version: DatasetVersion): string {
  const scope = dataset.workspaceId === undefined ? "" : `/workspaces/${dataset.workspaceId}`;
  const file = encodeURIComponent(version.fileName);
  return `${ctx.baseUrl}${scope}/datasets/${dataset.id}/v/${version.version}/n/${file}`;
}

function datasetDto(ctx: RouteContext, d: Dataset): Record<string, unknown> {
  const workspace =
    d.workspaceId === undefined ? undefined : ctx.state.workspaces.get(d.workspaceId);
  const latest = d.versions[d.versions.length - 1];
  const { user } = ctx.state;
  const userInfo = { id: user.id, userName: user.userName, email: user.email };
  return ctx.dto("DatasetDto", {
    id: d.id,
    name: d.name,
    description: d.description,
    mediaType: latest?.mediaType,
    version: latest?.version ?? 0,
    workspaceId: d.workspaceId,
    organizationId: workspace?.orgId,
    labels: labelDtos(ctx, d.labelIds),
    sourceType: "UPLOADED",
    hidden: false,
    deleted: false,
    dateCreated: d.dateCreated,
    lastUpdated: d.lastUpdated,
    user: ctx.dto("UserInfo", userInfo),
    lastUpdatedBy: ctx.dto("UserInfo", userInfo),
  });
}

function versionDto(ctx: RouteContext, d: Dataset, v: DatasetVersion): Record<string, unknown> {
  const { user } = ctx.state;
  return ctx.dto("DatasetVersionDto", {
    datasetId: d.id,
    datasetName: d.name,
    datasetDescription: d.description ?? "",
    version: v.version,
    fileName: v.fileName,
    fileSize: v.content.byteLength,
    mediaType: v.mediaType,
    hasHeader: v.hasHeader,
    disabled: v.disabled,
    url: datasetUrl(ctx, d, v),
    workspaceId: d.workspaceId,
    dateCreated: v.dateCreated,
    lastUpdated: v.dateCreated,
    createdBy: ctx.dto("UserInfo", { id: user.id, userName: user.userName, email: user.email }),
    linkedSource: undefined,
  });
}
