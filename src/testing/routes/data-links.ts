import type { DataLink } from "../state/data-links.js";
import type { EmulatorRequest } from "../types.js";
import { withErrorId } from "../ids.js";
import { bodyOf, ok, paged, type RouteContext, type StateRoute } from "./context.js";
import { namedResource } from "./named-resource.js";

const stored = namedResource({
  store: (state) => state.dataLinks,
  param: "dataLinkId",
  noun: "data link",
});

/** How many objects a browse answers per page when `pageSize` is not given. */
const PAGE_SIZE = 100;

/**
 * Data links of a workspace, keyed by operationId, with the objects under them: browsing lists
 * a folder's files and sub-folders a page at a time, the tree lists every file under paths,
 * and a download answers a file's bytes. A link is `VALID` when it is public or its
 * credentials exist in the workspace, else `INVALID` with the reason.
 */
export const dataLinkRoutes: Record<string, StateRoute> = {
  ListDataLinks(request, ctx) {
    const { credentialsId } = request.query;
    const links = stored
      .search(request, ctx)
      .filter((l) => credentialsId === undefined || l.credentialsId === credentialsId);
    return paged("dataLinks", links, request, (l) => dataLinkDto(ctx, l));
  },

  DescribeDataLink: stored.route((link, _request, ctx) => ok({ dataLink: dataLinkDto(ctx, link) })),

  CreateCustomDataLink(request, ctx) {
    const body = bodyOf(request);
    const name = stored.newName(body.name, ctx);
    if (typeof name !== "string") return name;
    const link = ctx.state.dataLinks.add({
      name,
      workspaceId: ctx.workspaceId,
      resourceRef: String(body.resourceRef ?? ""),
      ...(typeof body.provider === "string" && { provider: body.provider }),
      ...(typeof body.description === "string" && { description: body.description }),
      ...(typeof body.credentialsId === "string" && { credentialsId: body.credentialsId }),
      ...(typeof body.publicAccessible === "boolean" && {
        publicAccessible: body.publicAccessible,
      }),
    });
    return ok(dataLinkDto(ctx, link));
  },

  UpdateCustomDataLink: stored.route((link, request, ctx) => {
    const body = bodyOf(request);
    if (typeof body.name === "string" && body.name !== link.name) {
      const taken = stored.nameTaken(body.name, ctx);
      if (taken) return taken;
    }
    ctx.state.dataLinks.update(link.id, {
      ...(typeof body.name === "string" && { name: body.name }),
      ...(typeof body.description === "string" && { description: body.description }),
      ...(typeof body.credentialsId === "string" && { credentialsId: body.credentialsId }),
    });
    return ok(dataLinkDto(ctx, link));
  }),

  DeleteCustomDataLink: stored.delete,

  ExploreDataLink: readable((link, request, ctx) => browse(ctx, link, "", request)),

  ExploreDataLinkWithPath: readable((link, request, ctx) =>
    browse(ctx, link, String(request.params.path), request),
  ),

  ExploreDataLinkTree: readable((link, request) => {
    const paths = (request.query.paths as string[] | undefined) ?? [""];
    const items = [...link.objects]
      .filter(([key]) => paths.some((p) => p === "" || key === p || key.startsWith(folder(p))))
      .map(([key, content]) => ({ path: key, size: content.length }));
    return ok({ items });
  }),

  DownloadDataLink: readable((link, request) => {
    const key = String(request.params.filePath);
    const content = link.objects.get(key);
    if (!content) {
      return { status: 404, body: { message: withErrorId(`File '${key}' not found`) } };
    }
    return { status: 200, body: content, headers: { "content-type": "application/octet-stream" } };
  }),
};

/**
 * An operation on a link's objects. An INVALID link's objects cannot be read: the service
 * answers a browse without usable credentials with its generic 500 (tower-cli#524); a link
 * seeded with a `browseError` answers that.
 */
function readable(answer: Parameters<typeof stored.route>[0]): StateRoute {
  return stored.route((link, request, ctx) => {
    const failure = problem(ctx, link) === undefined ? link.browseError : {};
    if (!failure) return answer(link, request, ctx);
    const message = failure.message ?? "Unexpected error while processing request";
    return { status: failure.status ?? 500, body: { message: withErrorId(message) } };
  });
}

/** Why a link is INVALID (its `message`), or undefined when it is VALID. */
function problem(ctx: RouteContext, link: DataLink): string | undefined {
  if (link.publicAccessible) return undefined;
  if (!link.credentialsId) return "No credentials to read this bucket";
  const credentials = ctx.state.credentials.get(link.credentialsId);
  if (!credentials || credentials.workspaceId !== link.workspaceId) {
    return `Credentials '${link.credentialsId}' not found`;
  }
  return link.credentialsError;
}

/** "reads" → "reads/"; the root stays "". */
function folder(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? "" : `${trimmed}/`;
}

/** A folder's files and sub-folders (folders first), `search` a prefix of their names. */
function browse(ctx: RouteContext, link: DataLink, path: string, request: EmulatorRequest) {
  const prefix = folder(path);
  const search = typeof request.query.search === "string" ? request.query.search : "";
  const folders = new Set<string>();
  const files: { name: string; size: number }[] = [];
  for (const [key, content] of link.objects) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    if (!rest.startsWith(search)) continue;
    const slash = rest.indexOf("/");
    if (slash >= 0) folders.add(rest.slice(0, slash));
    else files.push({ name: rest, size: content.length });
  }
  const all = [
    ...[...folders].sort().map((name) => ({ type: "FOLDER", name, size: 0, mimeType: null })),
    ...files
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((f) => ({ type: "FILE", name: f.name, size: f.size, mimeType: mimeType(f.name) })),
  ];
  const offset = Number(request.query.nextPageToken ?? 0) || 0;
  const size = (request.query.pageSize as number | undefined) ?? PAGE_SIZE;
  const objects = all.slice(offset, offset + size).map((o) => ctx.dto("DataLinkItem", o));
  const more = offset + size < all.length;
  return ok({
    objects,
    nextPageToken: more ? String(offset + size) : null,
    originalPath: path === "" ? null : path,
  });
}

function mimeType(name: string): string {
  if (/\.(txt|log|csv|tsv|fa|fasta|fastq|fq|vcf|bed)$/i.test(name)) return "text/plain";
  if (/\.json$/i.test(name)) return "application/json";
  if (/\.html?$/i.test(name)) return "text/html";
  return "application/octet-stream";
}

function dataLinkDto(ctx: RouteContext, link: DataLink): Record<string, unknown> {
  const credentials = link.credentialsId
    ? ctx.state.credentials.get(link.credentialsId)
    : undefined;
  const usable = credentials && credentials.workspaceId === link.workspaceId;
  const message = problem(ctx, link);
  return ctx.dto("DataLinkDto", {
    id: link.id,
    name: link.name,
    description: link.description,
    resourceRef: link.resourceRef,
    type: "bucket",
    provider: link.provider,
    region: link.region,
    credentials: usable
      ? [{ id: credentials.id, name: credentials.name, provider: credentials.provider }]
      : [],
    publicAccessible: link.publicAccessible,
    hidden: false,
    status: message === undefined ? "VALID" : "INVALID",
    message,
  });
}
