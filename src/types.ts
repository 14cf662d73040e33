import type { HeadersOptions, ParamsOption, RequestBodyOption } from "openapi-fetch";
import type {
  FilterKeys,
  HttpMethod,
  PathsWithMethod,
  Readable,
  RequiredKeysOf,
  ResponseObjectMap,
  SuccessResponse,
} from "openapi-typescript-helpers";
import type { paths } from "../generated/schema.js";
import type { ParseAs } from "./parse.js";

/** Options any call may add to its parameters and body. */
export interface CallOptions {
  /** Accept-Version for this call, overriding the client's. */
  acceptVersion?: string;
  /** Aborts the call, including queued and retried attempts; it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Per-attempt timeout for this call, in ms (0: none). With parseAs "stream" it also bounds reading the stream. */
  timeoutMs?: number;
  /** Allow retries of this POST/PATCH (only if it is safe to repeat). */
  retryUnsafe?: boolean;
  /** Read the success body differently from the operation's default; "stream" gives the ReadableStream. */
  parseAs?: ParseAs;
  headers?: HeadersOptions;
}

type Media = `${string}/${string}`;

/** The operation object of a path and lower-case method. */
export type Operation<P extends keyof paths, M extends HttpMethod> = FilterKeys<paths[P], M>;

/** The typed second argument: params, body and call options; required when the operation needs any. */
export type OperationInit<O> = ParamsOption<O> & RequestBodyOption<O> & CallOptions;

type InitArgs<O, I> = RequiredKeysOf<OperationInit<O>> extends never ? [init?: I] : [init: I];

type SuccessBody<O> =
  ResponseObjectMap<O> extends infer R extends Record<string | number, any>
    ? SuccessResponse<R, Media>
    : never;
/** Readable<> strips readOnly/writeOnly markers, but would also flatten a Blob into a plain object. */
type ReadableBody<T> = T extends Blob ? T : Readable<T>;

type BodyAs<T> = {
  json: T;
  text: string;
  blob: Blob;
  arrayBuffer: ArrayBuffer;
  stream: ReadableStream<Uint8Array> | null;
};

/** What a call resolves to: the operation's success body, or what `parseAs` asked for. */
export type ResponseData<O, I> = I extends { parseAs: infer P extends ParseAs }
  ? BodyAs<ReadableBody<SuccessBody<O>>>[P]
  : ReadableBody<SuccessBody<O>>;

/** openapi-fetch style: `client.GET("/workflow/{workflowId}", { params: { path: { workflowId } } })`. */
export type TypedMethod<M extends HttpMethod> = <
  P extends PathsWithMethod<paths, M>,
  I extends OperationInit<Operation<P, M>>,
>(
  path: P,
  ...init: InitArgs<Operation<P, M>, I>
) => Promise<ResponseData<Operation<P, M>, I>>;

/** Same as TypedMethod, resolving to the parsed body and the Response it came from. */
export type RawMethod<M extends HttpMethod> = <
  P extends PathsWithMethod<paths, M>,
  I extends OperationInit<Operation<P, M>>,
>(
  path: P,
  ...init: InitArgs<Operation<P, M>, I>
) => Promise<{ data: ResponseData<Operation<P, M>, I>; response: Response }>;

/** The untyped escape hatch's second argument. */
export interface UntypedInit extends CallOptions {
  params?: {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
    header?: Record<string, string>;
  };
  body?: unknown;
}

export interface TypedMethods {
  GET: TypedMethod<"get">;
  PUT: TypedMethod<"put">;
  POST: TypedMethod<"post">;
  DELETE: TypedMethod<"delete">;
  PATCH: TypedMethod<"patch">;
  HEAD: TypedMethod<"head">;
  OPTIONS: TypedMethod<"options">;
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
