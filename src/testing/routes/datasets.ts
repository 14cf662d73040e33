import type { Dataset, DatasetVersion } from "../state/datasets.js";
import {
  FORBIDDEN,
  badRequest,
  bodyOf,
  NO_CONTENT,
  ok,
  paged,
  type RouteContext,
  type StateRoute,
} from "./context.js";
import { labelDtos } from "./labels.js";
import { namedResource } from "./named-resource.js";

const datasets = namedResource({
  store: (state) => state.datasets,
  param: "datasetId",
  noun: "dataset",
});

/** Datasets, their uploaded versions and the URLs launches take, keyed by operationId. */
const v2Routes = {
  ListDatasetsV2(request, ctx) {
    return paged("datasets", datasets.search(request, ctx), request, (d) => datasetDto(ctx, d));
  },

  DescribeDatasetV2: datasets.describe("dataset", datasetDto),

  CreateDatasetV2(request, ctx) {
    const body = bodyOf(request);
    const name = datasets.newName(body.name, ctx);
    if (typeof name !== "string") return name;
    const dataset = ctx.state.datasets.add({
      name,
      workspaceId: ctx.workspaceId,
      ...(typeof body.description === "string" && { description: body.description }),
    });
    return ok({ dataset: datasetDto(ctx, dataset) });
  },

  UpdateDatasetV2: datasets.route((dataset, request, ctx) => {
    const body = bodyOf(request);
    ctx.state.datasets.update(dataset.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.description === "string" && { description: body.description }),
    });
    return NO_CONTENT;
  }),

  DeleteDatasetV2: datasets.delete,

  UploadDatasetV2: datasets.route(async (dataset, request, ctx) => {
    const file = bodyOf(request).file;
    if (!(file instanceof Blob)) return badRequest("Missing file");
    const version = ctx.state.datasets.upload(dataset.id, {
      fileName: file instanceof File && file.name ? file.name : "samples.csv",
      content: new Uint8Array(await file.arrayBuffer()),
      ...(file.type && { mediaType: file.type }),
      hasHeader: request.query.header !== false,
    });
    return ok({ version: versionDto(ctx, dataset, version) });
  }),

  ListDatasetVersionsV2: datasets.route((dataset, request, ctx) => {
    const mimeType = request.query.mimeType;
    const versions = dataset.versions
      .filter((v) => mimeType === undefined || v.mediaType === mimeType)
      .reverse();
    return ok({
      versions: versions.map((v) => versionDto(ctx, dataset, v)),
      totalSize: versions.length,
    });
  }),

  DownloadDatasetV2: datasets.route((dataset, request) => {
    const version = dataset.versions.find(
      (v) => String(v.version) === request.params.version && v.fileName === request.params.fileName,
    );
    if (!version) {
      return { status: 404, body: { message: "Dataset version not found" } };
    }
    return { status: 200, body: version.content, headers: { "content-type": version.mediaType } };
  }),
} satisfies Record<string, StateRoute>;

/**
 * The older listing names the workspace in the path (`/workspaces/{workspaceId}/datasets`) and
 * answers as the V2 one does, from the same datasets.
 */
function inPathWorkspace(route: StateRoute): StateRoute {
  return (request, ctx) => {
    const workspaceId = request.params.workspaceId as number;
    if (!ctx.state.workspaces.get(workspaceId)) return FORBIDDEN;
    return route(request, { ...ctx, workspaceId });
  };
}

export const datasetRoutes: Record<string, StateRoute> = {
  ...v2Routes,
  ListDatasets: inPathWorkspace(v2Routes.ListDatasetsV2),
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
