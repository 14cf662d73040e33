/**
 * Async iteration over list operations, page by page or item by item.
 *
 * Two styles, as described per operation in generated/operations.ts:
 * - offset: `max`/`offset` query parameters (the server caps a page at MAX_PAGE_SIZE). Stops at the total
 *   when the operation reports one, else on a short page; always on an empty page. A full page
 *   that repeats one already read (a server ignoring `offset`) is a SeqeraApiError, rather than
 *   the same items forever or a list cut short silently.
 * - token: passes the response's `nextPageToken` back until it is absent, empty or repeated.
 * Pages are fetched one at a time, only when the iteration asks for more, so a `break` fetches
 * nothing further. Each page goes through `fetchPage`, i.e. through the client's transport
 * (rate limiter and retries included).
 */
import type { Pagination } from "../../generated/operations.js";
import { sha256 } from "../core/builtin.js";
import { SeqeraApiError, type CallInfo } from "../errors/seqera-api-error.js";
import type { UntypedInit } from "../http/request.js";
import { MAX_PAGE_SIZE } from "../openapi/operation-info.js";

/** Fetches one page: `query` holds the paging parameters only; returns the parsed body. */
export type FetchPage = (
  query: Record<string, string | number>,
  signal?: AbortSignal,
) => Promise<unknown>;

export interface PaginateOptions {
  /** Items per page; default and maximum MAX_PAGE_SIZE (100). */
  pageSize?: number;
  /** Stop after this many items. */
  limit?: number;
  signal?: AbortSignal;
}

export interface Page<Item> {
  items: Item[];
  /** The whole response body of the page. */
  body: unknown;
  /** Offset style: offset of the first item of this page. */
  offset?: number;
  /** Total count, when the operation reports it. */
  total?: number;
}

export interface Paginated<Item> extends AsyncIterable<Item> {
  items(): AsyncIterable<Item>;
  pages(): AsyncIterable<Page<Item>>;
}

/**
 * `client.paginate` for an operation the types of some release lack (checked with
 * requireOperation first): the same engine and guard, its items untyped.
 */
export function paginateUntyped<Item>(
  client: { paginate: unknown },
  path: string,
  init: UntypedInit & PaginateOptions,
): Paginated<Item> {
  type Untyped = (path: string, init: UntypedInit & PaginateOptions) => Paginated<Item>;
  return (client.paginate as Untyped)(path, init);
}

export function paginate<Item>(
  fetchPage: FetchPage,
  pagination: Pagination,
  options: PaginateOptions,
  call: CallInfo,
): Paginated<Item> {
  // Options were checked by the client (checkPageOptions, config/checks.ts).
  const pageSize = Math.min(options.pageSize ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
  const limit = options.limit ?? Infinity;
  const pages = () =>
    pagination.style === "offset"
      ? offsetPages<Item>(fetchPage, pagination, pageSize, limit, call, options.signal)
      : tokenPages<Item>(fetchPage, pagination, pageSize, limit, call, options.signal);
  async function* items(): AsyncGenerator<Item> {
    for await (const page of pages()) yield* page.items;
  }
  return { items, pages, [Symbol.asyncIterator]: () => items()[Symbol.asyncIterator]() };
}

async function* offsetPages<Item>(
  fetchPage: FetchPage,
  pagination: Extract<Pagination, { style: "offset" }>,
  pageSize: number,
  limit: number,
  call: CallInfo,
  signal?: AbortSignal,
): AsyncGenerator<Page<Item>> {
  let offset = 0;
  // A digest of each full page read, by the offset it was read at.
  const seen = new Map<string, number>();
  while (offset < limit) {
    const size = Math.min(pageSize, limit - offset);
    const body = await fetchPage({ [pagination.sizeParam]: size, offset }, signal);
    const items = itemsOf<Item>(body, pagination.items, call);
    const total = pagination.total === undefined ? undefined : numberField(body, pagination.total);
    if (items.length === 0) return;
    const pageItems = items.slice(0, size);
    if (pageItems.length === size) {
      const digest = sha256(JSON.stringify(pageItems), "base64");
      const earlier = seen.get(digest);
      if (earlier !== undefined) {
        throw new SeqeraApiError(
          `${call.method} ${call.path} answered the same ${size} items at offset ${offset} as at offset ${earlier}: the server ignores offset, so this list cannot be read past the ${offset} items already read. Narrow it with the operation's filters (a search, say) so that it fits in one page.`,
          { ...call, status: 200, body },
        );
      }
      seen.set(digest, offset);
    }
    yield { items: pageItems, body, offset, total };
    // Advance by what was yielded: a server answering more than asked must not make us skip.
    offset += pageItems.length;
    // A short page ends the list only when no total says otherwise (a server may cap below size).
    if (total !== undefined ? offset >= total : items.length < size) return;
  }
}

async function* tokenPages<Item>(
  fetchPage: FetchPage,
  pagination: Extract<Pagination, { style: "token" }>,
  pageSize: number,
  limit: number,
  call: CallInfo,
  signal?: AbortSignal,
): AsyncGenerator<Page<Item>> {
  let token: string | undefined;
  let count = 0;
  const seen = new Set<string>();
  while (count < limit) {
    const query: Record<string, string | number> = {};
    if (pagination.sizeParam !== undefined) query[pagination.sizeParam] = pageSize;
    if (token !== undefined) query.nextPageToken = token;
    const body = await fetchPage(query, signal);
    const items = itemsOf<Item>(body, pagination.items, call).slice(0, limit - count);
    count += items.length;
    yield { items, body };
    token = stringField(body, "nextPageToken");
    // A repeated token would loop forever; treat it as the end.
    if (token === undefined || token === "" || seen.has(token)) return;
    seen.add(token);
  }
}

function field(body: unknown, name: string): unknown {
  return typeof body === "object" && body !== null
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

/** The page's list; anything but a list (or none) is an answer of the service it cannot use. */
function itemsOf<Item>(body: unknown, name: string, call: CallInfo): Item[] {
  const value = field(body, name);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    throw new SeqeraApiError(
      `${call.method} ${call.path} answered 200 with "${name}" as ${typeof value} where a list was expected`,
      { ...call, status: 200, body },
    );
  }
  return value as Item[];
}

function numberField(body: unknown, name: string): number | undefined {
  const value = field(body, name);
  return typeof value === "number" ? value : undefined;
}

function stringField(body: unknown, name: string): string | undefined {
  const value = field(body, name);
  return typeof value === "string" ? value : undefined;
}
