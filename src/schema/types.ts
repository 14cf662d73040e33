/**
 * The schema layer: the schema's objects as answers carry them, named once for the helpers, their
 * errors and the emulator. Types only, from the generated schema: no release's fact is retyped.
 */
import type {
  FilterKeys,
  PathsWithMethod,
  Readable,
  ResponseObjectMap,
  SuccessResponse,
} from "openapi-typescript-helpers";
import type { components, paths } from "../../generated/schema.js";

type Schemas = components["schemas"];
/** A schema object as a response carries it (readOnly markers removed, as the typed calls do). */
type Read<N extends keyof Schemas> = Readable<Schemas[N]>;
/**
 * A GET's success body, as the typed call resolves to it. Types named by the operation rather
 * than by its schema hold for every release: the schema behind an answer is renamed across
 * releases (a run is `Workflow` in 1.85.0, `WorkflowMaxDbDto` since 1.102.0).
 */
type Answer<P extends PathsWithMethod<paths, "get">> = NonNullable<
  ReadableBody<SuccessBody<FilterKeys<paths[P], "get">>>
>;

type Media = `${string}/${string}`;

/** An operation's success body, as the schema declares it. */
export type SuccessBody<O> =
  ResponseObjectMap<O> extends infer R extends Record<string | number, any>
    ? SuccessResponse<R, Media>
    : never;
/** Readable<> strips readOnly/writeOnly markers, but would also flatten a Blob into a plain object. */
export type ReadableBody<T> = T extends Blob ? T : Readable<T>;

/** A workflow run (`GET /workflow/{workflowId}`'s `workflow`). */
export type Run = NonNullable<Answer<"/workflow/{workflowId}">["workflow"]>;
export type RunStatus = Schemas["WorkflowStatus"];
/** A run as the runs list (`GET /workflow`) gives it. */
export type RunSummary = Read<"WorkflowDbDto">;
/** A task of a run (`GET /workflow/{workflowId}/tasks`). */
export type Task = Read<"Task">;
export type ComputeEnv = Read<"ComputeEnvResponseDto">;
export type ComputeEnvStatus = Schemas["ComputeEnv.Status"];
/** A compute environment as the list (`GET /compute-envs`) gives it. */
export type ComputeEnvSummary = Read<"ListComputeEnvsResponse.Entry">;
export type Pipeline = Read<"PipelineDbDto">;
export type Credentials = Read<"Credentials">;
export type Dataset = Read<"DatasetDto">;
export type DatasetVersion = Read<"DatasetVersionDto">;
export type Label = Read<"LabelDbDto">;
export type PipelineSecret = Read<"PipelineSecret">;
/** A data link (`GET /data-links`'s `dataLinks`). */
export type DataLink = Read<"DataLinkDto">;
/** A Data Studio (`GET /studios`'s `studios`). */
export type Studio = Read<"DataStudioDto">;
/** An organization (`GET /orgs`'s `organizations`). */
export type Organization = Read<"OrganizationDbDto">;
/** A team of an organization (`GET /orgs/{orgId}/teams`'s `teams`). */
export type Team = Read<"TeamDbDto">;
/** A workspace role, as the release names them (`WspRole`; releases without it take any text). */
export type WorkspaceRole = Schemas extends { WspRole: infer R } ? R : string;
/**
 * A pipeline's saved launch configuration (`GET /pipelines/{pipelineId}/launch`), every field
 * optional: the service leaves out what is unset, though 1.85.0 declares some required.
 */
export type PipelineLaunch = Partial<
  NonNullable<Answer<"/pipelines/{pipelineId}/launch">["launch"]>
>;
/** The launch configuration of an earlier run (`GET /workflow/{workflowId}/launch`). */
export type RunLaunch = Read<"WorkflowLaunchResponse">;
/**
 * Launch fields that older releases lack (`pipelineSchemaId` before 1.140.0, `outputDir` and
 * `syntaxParser` before 1.181.0, `nextflowVersion` before 1.187.0): the helpers take them on
 * every release and send them as given; a service of an older release ignores or refuses them.
 */
interface LaterLaunchFields {
  pipelineSchemaId?: number;
  outputDir?: string | null;
  syntaxParser?: "v1" | "v2" | null;
  nextflowVersion?: string | null;
}
/** The `launch` body of `POST /workflow/launch`. */
export type LaunchRequest = Schemas["WorkflowLaunchRequest"] & LaterLaunchFields;
/** A log file offered for download with a run's log (`LogPage.downloads`). */
export type LogDownload = Read<"LogPage.Download">;
