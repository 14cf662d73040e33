import type { ParamsOption } from "openapi-fetch";
import type {
  $Read,
  $Write,
  FilterKeys,
  HttpMethod,
  IsOperationRequestBodyOptional,
  OperationRequestBodyContent,
  PathsWithMethod,
  RequiredKeysOf,
} from "openapi-typescript-helpers";
import type { CallOptions, UntypedInit } from "../http/request.js";
import type { ClientOverrides, SeqeraConfig } from "../config/config.js";
import type { paths } from "../../generated/schema.js";
import type { Paginated, PaginateOptions } from "./paginate.js";
import type { ParseAs } from "../http/read-response.js";
import type { ReadableBody, SuccessBody } from "../schema/types.js";
import type { CreatedIds, ListedIds, Present } from "../model/identified.js";

export type { CallOptions, UntypedInit };

/** The operation object of a path and lower-case method. */
export type Operation<P extends keyof paths, M extends HttpMethod> = FilterKeys<paths[P], M>;

/**
 * Path parameters that the schema types as numbers take ids as text too: the package hands ids
 * on as text (the service's are int64), and a found resource's id goes into the next call as is.
 */
type TextIds<Params> = Params extends { path: infer Path }
  ? Omit<Params, "path"> & {
      path: { [K in keyof Path]: Path[K] extends number ? number | string : Path[K] };
    }
  : Params;

/** openapi-fetch's ParamsOption, with path ids as text. */
type ParamsOf<O> = O extends { parameters: infer P }
  ? RequiredKeysOf<P> extends never
    ? { params?: TextIds<P> }
    : { params: TextIds<P> }
  : ParamsOption<O>;

/**
 * A request body as a typed call takes it: openapi-fetch's (readOnly fields left out), where an
 * optional field also takes null, which the service (Java) reads as absent; so a field read from
 * an answer (`string | null | undefined`) goes into a request as it is.
 */
type Sendable<T> =
  T extends $Read<any>
    ? never
    : T extends $Write<infer U>
      ? Sendable<U>
      : T extends Blob
        ? T
        : T extends (infer E)[]
          ? Sendable<E>[]
          : T extends object
            ? {
                [K in keyof T as NonNullable<T[K]> extends $Read<any> ? never : K]:
                  Sendable<T[K]> | (undefined extends T[K] ? null : never);
              }
            : T;

/** openapi-fetch's RequestBodyOption, the body Sendable. */
type BodyOf<O> =
  OperationRequestBodyContent<O> extends infer B
    ? [Sendable<B>] extends [never]
      ? { body?: never }
      : IsOperationRequestBodyOptional<O> extends true
        ? { body?: Sendable<B> }
        : { body: Sendable<B> }
    : never;

/**
 * The typed second argument: params, body and call options; required when the operation needs
 * any. Only `parseAs` is a type parameter (`A`, for the result's type): the rest is the
 * operation's own type, so an object literal is checked against it key by key, and a key it
 * does not have (`computeEnvID`, `launch.lanch`) is a compile error naming it.
 */
export type OperationInit<O, A extends ParseAs | undefined = undefined> = ParamsOf<O> &
  BodyOf<O> &
  Omit<CallOptions, "parseAs"> & { parseAs?: A };

type InitArgs<O, I> = RequiredKeysOf<OperationInit<O>> extends never ? [init?: I] : [init: I];

type BodyAs<T> = {
  json: T;
  text: string;
  blob: Blob;
  arrayBuffer: ArrayBuffer;
  stream: ReadableStream<Uint8Array> | null;
};

/**
 * An answer as the client hands it on: the id of what a create operation made, and the ids of a
 * family's listed items, present (the client checks them: model/identified.ts).
 */
type Answered<Key, B> = Key extends keyof CreatedIds
  ? Present<B, CreatedIds[Key]>
  : Key extends keyof ListedIds
    ? B extends object
      ? { [F in keyof B]: ListPresent<B[F], ListedIds[Key]> }
      : B
    : B;
type ListPresent<T, Path extends string> = T extends readonly (infer E)[] ? Present<E, Path>[] : T;

/**
 * What a call of operation `O` (`Key`: "POST /compute-envs") resolves to: its success body, or
 * what `parseAs` (`A`) asked for.
 */
export type ResponseData<
  O,
  A extends ParseAs | undefined = undefined,
  Key = never,
> = A extends ParseAs
  ? BodyAs<Answered<Key, ReadableBody<SuccessBody<O>>>>[A]
  : Answered<Key, ReadableBody<SuccessBody<O>>>;

/** openapi-fetch style: `client.GET("/workflow/{workflowId}", { params: { path: { workflowId } } })`. */
export type TypedMethod<M extends HttpMethod> = <
  P extends PathsWithMethod<paths, M>,
  A extends ParseAs | undefined = undefined,
>(
  path: P,
  ...init: InitArgs<Operation<P, M>, OperationInit<Operation<P, M>, A>>
) => Promise<ResponseData<Operation<P, M>, A, `${Uppercase<M>} ${P}`>>;

/** Same as TypedMethod, resolving to the parsed body and the Response it came from. */
export type RawMethod<M extends HttpMethod> = <
  P extends PathsWithMethod<paths, M>,
  A extends ParseAs | undefined = undefined,
>(
  path: P,
  ...init: InitArgs<Operation<P, M>, OperationInit<Operation<P, M>, A>>
) => Promise<{
  data: ResponseData<Operation<P, M>, A, `${Uppercase<M>} ${P}`>;
  response: Response;
}>;

/** GET paths whose operation pages with max/offset or nextPageToken. */
export type PaginatedPath = {
  [P in PathsWithMethod<paths, "get">]: PagingQuery<
    NonNullable<FilterKeys<Operation<P, "get">, "parameters">>
  > extends true
    ? P
    : never;
}[PathsWithMethod<paths, "get">];

/**
 * A path `paginate` takes: a list path as it is; any other GET path becomes the type-check's
 * message, so that `client.paginate("/pipeline-secrets")` says why rather than "Expected 2
 * arguments".
 */
type PagedPath<P extends string> = P extends PaginatedPath
  ? P
  : `${P} does not page (its operation takes no max/offset): read it whole with client.GET("${P}")`;

/** Whether parameters have an offset or nextPageToken query parameter (`query?: never`: no). */
type PagingQuery<Params> = Params extends { query?: infer Q }
  ? [NonNullable<Q>] extends [never]
    ? false
    : "offset" extends keyof NonNullable<Q>
      ? true
      : "nextPageToken" extends keyof NonNullable<Q>
        ? true
        : false
  : false;

/** The item type of a list: the element type of the array in its success body. */
export type ItemOf<P extends PaginatedPath> =
  NonNullable<ResponseData<Operation<P, "get">, undefined, `GET ${P}`>> extends infer B
    ? { [K in keyof B]-?: NonNullable<B[K]> extends readonly (infer E)[] ? E : never }[keyof B]
    : never;

/** A list call's parameters, without the paging ones, plus how to page. */
export type PaginateInit<P extends PaginatedPath> = ParamsOf<Operation<P, "get">> &
  Omit<CallOptions, "parseAs"> &
  PaginateOptions;

export interface TypedMethods {
  GET: TypedMethod<"get">;
  PUT: TypedMethod<"put">;
  POST: TypedMethod<"post">;
  DELETE: TypedMethod<"delete">;
  PATCH: TypedMethod<"patch">;
  HEAD: TypedMethod<"head">;
  OPTIONS: TypedMethod<"options">;
  /**
   * Iterates a list operation item by item (`for await`), or page by page (`.pages()`),
   * fetching pages of up to 100 as the iteration asks, through the rate limiter and retries.
   */
  paginate<P extends PathsWithMethod<paths, "get">>(
    path: PagedPath<P>,
    ...init: P extends PaginatedPath ? InitArgs<Operation<P, "get">, PaginateInit<P>> : []
  ): P extends PaginatedPath ? Paginated<ItemOf<P>> : never;
  /** Any method and path template, untyped; paths missing from the schema are read by Content-Type. */
  request(method: string, path: string, init?: UntypedInit): Promise<unknown>;
}

export interface RawMethods {
  GET: RawMethod<"get">;
  PUT: RawMethod<"put">;
  POST: RawMethod<"post">;
  DELETE: RawMethod<"delete">;
  PATCH: RawMethod<"patch">;
  HEAD: RawMethod<"head">;
  OPTIONS: RawMethod<"options">;
  request(
    method: string,
    path: string,
    init?: UntypedInit,
  ): Promise<{ data: unknown; response: Response }>;
}

export interface SeqeraClient extends TypedMethods {
  /** The resolved settings (never the token). */
  readonly config: SeqeraConfig;
  /** The same calls, resolving to `{ data, response }` with the raw Response. */
  readonly raw: RawMethods;
  /**
   * A client for the same connection, token and rate limit, with some settings changed; it
   * shares its parent's name look-ups and lifetime. Bad options throw ConfigurationError.
   *
   * @example client.withOptions({ timeoutMs: 120_000, retry: false })
   */
  withOptions(options: ClientOverrides): SeqeraClient;
  /**
   * `withOptions({ workspaceId })`: the same client, its calls and helpers in that workspace (an
   * id, or "organization/workspace", looked up once); `null` for the personal workspace.
   *
   * @example await launchPipeline(client.withWorkspace("acme/genomics"), "rnaseq")
   */
  withWorkspace(workspaceId: number | string | null): SeqeraClient;
  /**
   * The id of the client's workspace as digits (int64-safe), a name looked up once; undefined
   * for the personal workspace.
   */
  resolveWorkspaceId(options?: { signal?: AbortSignal }): Promise<string | undefined>;
  /** Releases what the rate limiter holds (timers, a Redis connection), for derived clients too. */
  close(): Promise<void>;
}
