/** Run and task logs: follow a run's console log as it grows, read a task's, download log files. */
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { sleep } from "../core/backoff.js";
import type { SeqeraClient } from "../client/client.js";
import { pollDelays, type PollOptions } from "./poll.js";
import { TERMINAL_RUN_STATUSES } from "./runs.js";
import type { LogDownload } from "./schema.js";

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
 * a token is the log from its start (a server that gives none, or a log that restarted): the
 * lines already given are skipped. Between polls it waits `pollIntervalMs`, longer while
 * nothing new comes; leaving the loop stops it.
 */
export async function* followRunLog(
  client: SeqeraClient,
  workflowId: string,
  options: FollowRunLogOptions = {},
): AsyncGenerator<string, void, undefined> {
  const { signal, maxLength } = options;
  const delays = pollDelays(options);
  let cursor: string | undefined;
  // Lines given in all; those of the answers to the current cursor; the page that gave it.
  let given = 0;
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
    if (cursor === undefined || token === undefined) skip = given;
    // A token that did not move, answering the page that gave it: `next` was ignored.
    else if (!moved && atCursor === 0 && startsWith(entries, pageBefore)) skip = pageBefore.length;
    const fresh = entries.slice(skip);
    given += fresh.length;
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

/** A task's log lines (`GET /workflow/{workflowId}/log/{taskId}`), every page of it. */
export async function taskLog(
  client: SeqeraClient,
  workflowId: string,
  taskId: number,
  options: LogOptions = {},
): Promise<string[]> {
  const { signal } = options;
  const lines: string[] = [];
  const cursors = new Set<string>();
  let next: string | undefined;
  for (;;) {
    const { log } = await client.GET("/workflow/{workflowId}/log/{taskId}", {
      params: { path: { workflowId, taskId }, query: { next } },
      signal,
    });
    lines.push(...(log?.entries ?? []));
    next = log?.forwardToken ?? undefined;
    // A truncated page has more behind its token; a repeated token would loop forever.
    if (!log?.truncated || !next || cursors.has(next)) return lines;
    cursors.add(next);
  }
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
    await pipeline(source, createWriteStream(file), { signal });
    written.push(file);
  }
  return written;
}
