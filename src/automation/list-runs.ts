/** Listing runs, in a workspace or many, with their dates as instants. */
import { ConfigurationError } from "../errors/configuration-error.js";
import type { SeqeraClient } from "../client/client.js";
import type { Identified } from "../model/identified.js";
import type { Label, RunStatus, RunSummary } from "../schema/types.js";

export interface ListRunsOptions {
  /** Runs with one of these statuses. */
  status?: RunStatus | readonly RunStatus[];
  /**
   * Runs submitted at or after this instant (a Date, or an ISO 8601 date-time string), or on or
   * after this day ("YYYY-MM-DD", UTC).
   */
  after?: Date | string;
  /**
   * Runs submitted at or before this instant (a Date, or an ISO 8601 date-time string), or on or
   * before this day ("YYYY-MM-DD", UTC).
   */
  before?: Date | string;
  /** Runs that ended at or after this instant or day (ended runs only), as `after` takes it. */
  completedAfter?: Date | string;
  /** Runs with one of these labels ("name" or "name=value"). */
  labels?: readonly string[];
  /** More search words as the web interface takes them: part of a run name, `userName:bob`, … */
  search?: string;
  /** Stop after this many runs; default all. */
  limit?: number;
  signal?: AbortSignal;
}

/** A run as listRuns and watchRuns give it: the list's run with its labels and elapsed time. */
export type ListedRun = Identified<RunSummary, "id"> & {
  /** Its labels, `{ name, value }` (value null for a plain label). */
  labels: Label[];
  /** Ms from its start to its end, or to now while it runs; undefined before it starts. */
  elapsedMs: number | undefined;
  /** The workspace it is in, as digits; undefined for a personal workspace's run. */
  workspaceId: string | undefined;
};

/**
 * The workspace's runs, newest first, with their labels (`attributes=labels`) and elapsed time,
 * filtered by the service (`GET /workflow`'s `search`, in the web interface's syntax:
 * `status:FAILED after:2024-05-01 label:nightly`), page by page as the loop asks. The service's
 * `after:`/`before:` take whole days: an instant is sent as its UTC day and the runs of that day
 * outside the instant are left out here, by submit time; `completedAfter` is checked here only.
 *
 * @example
 * const since = new Date(Date.now() - 24 * 3600_000);
 * for await (const run of listRuns(client, { status: "FAILED", after: since })) console.log(run.id);
 */
export async function* listRuns(
  client: SeqeraClient,
  options: ListRunsOptions = {},
): AsyncGenerator<ListedRun, void, undefined> {
  const { signal, limit } = options;
  const statuses = typeof options.status === "string" ? [options.status] : (options.status ?? []);
  const after = bound(options.after, "after");
  const before = bound(options.before, "before");
  const completedAfter = bound(options.completedAfter, "completedAfter");
  const words = [
    ...statuses.map((s) => `status:${s}`),
    ...(options.labels ?? []).map((l) => `label:${l}`),
    ...(after ? [`after:${after.day}`] : []),
    ...(before ? [`before:${before.day}`] : []),
    ...(options.search ? [options.search] : []),
  ];
  const search = words.length ? words.join(" ") : undefined;
  const kept = (run: RunSummary) =>
    within(run.submit ?? run.dateCreated, after?.at, before?.at) &&
    (!completedAfter || within(run.complete, completedAfter.at ?? dayStart(completedAfter.day)));
  const precise = after?.at !== undefined || before?.at !== undefined || !!completedAfter;
  if (limit !== undefined && limit <= 0) return;
  // Offset pages of a list newest first: a run launched while it is read pushes the last run of
  // a page to the top of the next, where it would be given twice.
  const given = new Set<string>();
  for await (const item of client.paginate("/workflow", {
    params: { query: { search, attributes: ["labels"] } },
    // Filtered here, the service's count is not ours: the limit only sizes the pages.
    pageSize: precise ? undefined : limit,
    signal,
  })) {
    const run = item.workflow; // its id checked by the client
    if (precise && !kept(run)) continue;
    if (given.has(run.id)) continue;
    given.add(run.id);
    yield listed(run, item.labels, item.workspaceId);
    if (limit !== undefined && given.size >= limit) return;
  }
}

/** A run with its labels, elapsed time and workspace (ids as digits). */
export function listed(
  run: Identified<RunSummary, "id">,
  labels: readonly Label[] | null | undefined,
  workspaceId: number | string | null | undefined,
): ListedRun {
  return {
    ...run,
    labels: [...(labels ?? [])],
    elapsedMs: elapsedMs(run),
    workspaceId: workspaceId == null ? undefined : String(workspaceId),
  };
}

/** Ms from a run's start to its end, or to now while it runs; undefined before it starts. */
export function elapsedMs(run: Pick<RunSummary, "start" | "complete">): number | undefined {
  const start = Date.parse(run.start ?? "");
  const end = run.complete ? Date.parse(run.complete) : Date.now();
  return Number.isNaN(start) ? undefined : Math.max(0, end - start);
}

/** Whether a date-time falls within the bounds (ms; either may be absent). */
function within(value: string | null | undefined, from?: number, to?: number): boolean {
  if (from === undefined && to === undefined) return true;
  const at = Date.parse(value ?? "");
  return !(from !== undefined && !(at >= from)) && !(to !== undefined && !(at <= to));
}

const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** A bound as the service takes it (a UTC day) and, for an instant, the instant in ms. */
function bound(
  value: Date | string | undefined,
  name: string,
): { day: string; at?: number } | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value)) return { day: value };
  const at = instant(value, "listRuns", name);
  return { day: new Date(at).toISOString().slice(0, 10), at };
}

/**
 * The instant, in ms, of a Date, an ISO 8601 date-time or a "YYYY-MM-DD" day (its start, UTC);
 * else a ConfigurationError naming `caller`'s option `name`.
 */
export function instant(value: Date | string, caller: string, name: string): number {
  const at = typeof value === "string" ? Date.parse(value) : value.getTime();
  if (Number.isNaN(at)) {
    throw new ConfigurationError(
      `${caller}: \`${name}\` is a Date, an ISO 8601 date-time or "YYYY-MM-DD", got ${JSON.stringify(String(value))}`,
    );
  }
  return at;
}
