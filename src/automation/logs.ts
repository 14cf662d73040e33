/** Run and task logs: follow a run's console log as it grows, read a task's, download log files. */
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { offAbort, onAbort } from "../core/abort.js";
import { sleep } from "../core/backoff.js";
import type { SeqeraClient } from "../client/client.js";
import { collect } from "../client/lookup.js";
import { paginate, type FetchPage } from "../client/paginate.js";
import { pollDelays, type PollOptions } from "./poll.js";
import { TERMINAL_RUN_STATUSES } from "./runs.js";
import type { LogDownload } from "../schema/types.js";

export interface LogOptions {
  signal?: AbortSignal;
}

export interface FollowRunLogOptions extends PollOptions, LogOptions {
  /** Characters per page asked of the service (`maxLength`); default the service's page size. */
  maxLength?: number;
}

/**
 * The run's console log, line by line, as it grows, until the run has ended and its last lines
 * are read (`GET /workflow/{workflowId}/log`). Each page's `forwardToken` is passed back as
 * `next`, so no line comes twice and none is skipped; a `truncated` page is followed at once
 * when its token moved on. A token that does not move means the same lines come again, maybe
 * with more: only those past what was given are yielded, after the usual wait. A page without
 * a token is the log from its start (a server that gives none, or a log that restarted): when
 * it begins with the lines already given they are skipped; when it does not, the log started
 * over (a resumed run's) and its lines are given from its start. Between polls it waits
 * `pollIntervalMs`, longer while nothing new comes; leaving the loop stops it.
 */
export async function* followRunLog(
  client: SeqeraClient,
  workflowId: string,
  options: FollowRunLogOptions = {},
): AsyncGenerator<string, void, undefined> {
  const { signal, maxLength } = options;
  const delays = pollDelays(options);
  let cursor: string | undefined;
  // What was given since the log's start; lines given of the answers to the current cursor;
  // the page that gave it.
  const given = new LinesGiven();
  let atCursor = 0;
  let pageBefore: string[] = [];
  let lastPass = false;
  for (;;) {
    const { log } = await client.GET("/workflow/{workflowId}/log", {
      params: { path: { workflowId }, query: { next: cursor, maxLength } },
      signal,
    });
    const entries = log?.entries ?? [];
    const token = log?.forwardToken || undefined;
    const moved = token !== undefined && token !== cursor;
    let skip = atCursor;
    if (cursor === undefined || token === undefined) skip = given.sharedWith(entries);
    // A token that did not move, answering the page that gave it: `next` was ignored.
    else if (!moved && atCursor === 0 && startsWith(entries, pageBefore)) skip = pageBefore.length;
    const fresh = entries.slice(skip);
    given.add(fresh);
    atCursor = moved ? 0 : skip + fresh.length;
    if (moved) pageBefore = entries;
    cursor = token;
    yield* fresh;
    if (log?.truncated && moved) continue;
    if (lastPass) return;
    // Nothing new, or the service says nothing more is pending: has the run ended?
    const quiet = fresh.length === 0 || log?.pending === false;
    if (quiet && (await hasEnded(client, workflowId, signal))) {
      // Lines written between this page and the run's end are read on one more pass.
      lastPass = true;
      continue;
    }
    await sleep(delays(fresh.length > 0), signal);
  }
}

/**
 * The lines given since the log's start, kept as a running hash after each (not the lines: a
 * log may be long), to tell a page from the start that re-reads them from a log that started
 * over.
 */
class LinesGiven {
  readonly #hashes: number[] = [];

  add(lines: readonly string[]): void {
    for (const line of lines) this.#hashes.push(chain(this.#hashes.at(-1) ?? 0, line));
  }

  /**
   * How many of a page from the log's start were given already: all it shares with what was
   * given when it begins with those lines; none when it does not (the log started over, and
   * what is given from now on counts from its new start).
   */
  sharedWith(page: readonly string[]): number {
    const shared = Math.min(page.length, this.#hashes.length);
    let hash = 0;
    for (let i = 0; i < shared; i++) hash = chain(hash, page[i]!);
    if (shared === 0 || hash === this.#hashes[shared - 1]) return shared;
    this.#hashes.length = 0;
    return 0;
  }
}

/** FNV-1a of the line, chained to the hash of the lines before it. */
function chain(previous: number, line: string): number {
  let hash = previous ^ 0x811c9dc5;
  for (let i = 0; i < line.length; i++) hash = Math.imul(hash ^ line.charCodeAt(i), 0x01000193);
  return Math.imul(hash ^ 0x0a, 0x01000193) >>> 0;
}

function startsWith(lines: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= lines.length && prefix.every((line, i) => lines[i] === line);
}

async function hasEnded(
  client: SeqeraClient,
  workflowId: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const { workflow } = await client.GET("/workflow/{workflowId}", {
    params: { path: { workflowId } },
    signal,
  });
  return workflow?.status != null && TERMINAL_RUN_STATUSES.includes(workflow.status);
}

/**
 * A task's log lines (`GET /workflow/{workflowId}/log/{taskId}`), every page of it: a
 * `truncated` page has more behind its `forwardToken`, read through the pagination engine as a
 * token list (a repeated token ends it; entries that are not a list are an answer it cannot use).
 */
export async function taskLog(
  client: SeqeraClient,
  workflowId: string,
  taskId: number,
  options: LogOptions = {},
): Promise<string[]> {
  const path = "/workflow/{workflowId}/log/{taskId}";
  const fetchPage: FetchPage = async (query, signal) => {
    const next = query.nextPageToken as string | undefined;
    const { log } = await client.GET(path, {
      params: { path: { workflowId, taskId }, query: { next } },
      signal,
    });
    return { entries: log?.entries, nextPageToken: log?.truncated ? log.forwardToken : undefined };
  };
  const call = { method: "GET", path, operationId: "GetWorkflowTaskLog" };
  return collect(paginate<string>(fetchPage, { style: "token", items: "entries" }, options, call));
}

export interface DownloadLogOptions extends LogOptions {
  /** The file: default `nf-<workflowId>.log` for a run, `.command.log` for a task. */
  fileName?: string;
  /** A task's file (`.command.out`, `.command.err`, `.command.log`) rather than the run's. */
  taskId?: number;
}

/** One log file's content (`GET /workflow/{workflowId}/download[/{taskId}]`). */
export async function downloadRunLog(
  client: SeqeraClient,
  workflowId: string,
  options: DownloadLogOptions = {},
): Promise<string> {
  const { signal, taskId } = options;
  if (taskId === undefined) {
    const fileName = options.fileName ?? `nf-${workflowId}.log`;
    return client.GET("/workflow/{workflowId}/download", {
      params: { path: { workflowId }, query: { fileName } },
      // Text whatever the release declares (application/json before 1.181.0, text/plain since).
      parseAs: "text",
      signal,
    });
  }
  return client.GET("/workflow/{workflowId}/download/{taskId}", {
    params: {
      path: { workflowId, taskId },
      query: { fileName: options.fileName ?? ".command.log" },
    },
    parseAs: "text",
    signal,
  });
}

/**
 * Saves every log file the run offers (its log page's `downloads`; else `nf-<workflowId>.log`)
 * into `dir`, streamed to disk, each under its `saveName`; resolves with the paths written.
 */
export async function saveRunLogs(
  client: SeqeraClient,
  workflowId: string,
  dir: string,
  options: LogOptions = {},
): Promise<string[]> {
  const { signal } = options;
  const { log } = await client.GET("/workflow/{workflowId}/log", {
    params: { path: { workflowId }, query: { maxLength: 1 } },
    signal,
  });
  const offered: LogDownload[] = log?.downloads?.length
    ? log.downloads
    : [{ fileName: `nf-${workflowId}.log` }];
  // Loaded here, not with the package: Node's streams add milliseconds to every import of it.
  const [path, { createWriteStream }, { mkdir }, { Readable }, { pipeline }] = await Promise.all([
    import("node:path"),
    import("node:fs"),
    import("node:fs/promises"),
    import("node:stream"),
    import("node:stream/promises"),
  ]);
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const download of offered) {
    if (!download.fileName) continue;
    const stream = await client.GET("/workflow/{workflowId}/download", {
      params: { path: { workflowId }, query: { fileName: download.fileName } },
      parseAs: "stream",
      signal,
    });
    // The name comes from the server: keep it inside `dir`.
    const file = path.join(dir, path.basename(download.saveName || download.fileName));
    const source = stream ? Readable.fromWeb(stream as WebReadableStream) : Readable.from([]);
    await copyToDisk(pipeline, source, createWriteStream(file), signal);
    written.push(file);
  }
  return written;
}

/**
 * `pipeline(source, file)`, stopped by `signal` with its reason. The pipeline listens to a signal
 * of its own, which the caller's reaches through its one listener (core/abort.ts): given the
 * caller's, 50 downloads under one batch's signal were 50 listeners on it, and a warning.
 */
async function copyToDisk(
  pipeline: typeof import("node:stream/promises").pipeline,
  source: NodeJS.ReadableStream,
  file: NodeJS.WritableStream,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!signal) return pipeline(source, file);
  signal.throwIfAborted();
  const stop = new AbortController();
  const forward = () => stop.abort(signal.reason);
  onAbort(signal, forward);
  try {
    await pipeline(source, file, { signal: stop.signal });
  } catch (error) {
    signal.throwIfAborted();
    throw error;
  } finally {
    offAbort(signal, forward);
  }
}
