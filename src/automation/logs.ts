/** Run and task logs: follow a run's console log as it grows, read a task's, download log files. */
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { sleep } from "../core/backoff.js";
import type { SeqeraClient } from "../client/client.js";
import { workspaceIdOf, type WorkspaceRef } from "./names.js";
import { pollDelays, type PollOptions } from "./poll.js";
import { TERMINAL_RUN_STATUSES } from "./runs.js";
import type { LogDownload } from "./schema.js";

export interface LogOptions {
  /** The run's workspace; default the client's. */
  workspaceId?: WorkspaceRef;
  signal?: AbortSignal;
}

export interface FollowRunLogOptions extends PollOptions, LogOptions {
  /** Characters per page asked of the service (`maxLength`); default the service's page size. */
  maxLength?: number;
}

/**
 * The run's console log, line by line, as it grows, until the run has ended and its last lines
 * are read (`GET /workflow/{workflowId}/log`). Each page's `forwardToken` is passed back as
 * `next`, so no line comes twice and none is skipped; a `truncated` page is followed at once.
 * Against a server that gives no token it re-reads the log and skips the lines already given.
 * Between polls it waits `pollIntervalMs`, longer while nothing new comes; leaving the loop
 * stops it.
 */
export async function* followRunLog(
  client: SeqeraClient,
  workflowId: string,
  options: FollowRunLogOptions = {},
): AsyncGenerator<string, void, undefined> {
  const { signal, maxLength } = options;
  const workspaceId = await workspaceIdOf(client, options.workspaceId, signal);
  const delays = pollDelays(options);
  let cursor: string | undefined;
  let given = 0;
  let lastPass = false;
  for (;;) {
    const { log } = await client.GET("/workflow/{workflowId}/log", {
      params: { path: { workflowId }, query: { workspaceId, next: cursor, maxLength } },
      signal,
    });
    const entries = log?.entries ?? [];
    // With a cursor the page holds only what follows it; without one, the log from its start.
    const fresh = cursor === undefined ? entries.slice(given) : entries;
    given += fresh.length;
    if (log?.forwardToken) cursor = log.forwardToken;
    yield* fresh;
    if (log?.truncated) continue;
    if (lastPass) return;
    // Nothing new, or the service says nothing more is pending: has the run ended?
    const quiet = fresh.length === 0 || log?.pending === false;
    if (quiet && (await hasEnded(client, workflowId, workspaceId, signal))) {
      // Lines written between this page and the run's end are read on one more pass.
      lastPass = true;
      continue;
    }
    await sleep(delays(fresh.length > 0), signal);
  }
}

async function hasEnded(
  client: SeqeraClient,
  workflowId: string,
  workspaceId: number | undefined,
  signal?: AbortSignal,
): Promise<boolean> {
  const { workflow } = await client.GET("/workflow/{workflowId}", {
    params: { path: { workflowId }, query: { workspaceId } },
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
  const workspaceId = await workspaceIdOf(client, options.workspaceId, signal);
  const lines: string[] = [];
  const cursors = new Set<string>();
  let next: string | undefined;
  for (;;) {
    const { log } = await client.GET("/workflow/{workflowId}/log/{taskId}", {
      params: { path: { workflowId, taskId }, query: { workspaceId, next } },
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
  const workspaceId = await workspaceIdOf(client, options.workspaceId, signal);
  if (taskId === undefined) {
    const fileName = options.fileName ?? `nf-${workflowId}.log`;
    return client.GET("/workflow/{workflowId}/download", {
      params: { path: { workflowId }, query: { fileName, workspaceId } },
      // Text whatever the release declares (application/json before 1.181.0, text/plain since).
      parseAs: "text",
      signal,
    });
  }
  return client.GET("/workflow/{workflowId}/download/{taskId}", {
    params: {
      path: { workflowId, taskId },
      query: { fileName: options.fileName ?? ".command.log", workspaceId },
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
  const workspaceId = await workspaceIdOf(client, options.workspaceId, signal);
  const { log } = await client.GET("/workflow/{workflowId}/log", {
    params: { path: { workflowId }, query: { workspaceId, maxLength: 1 } },
    signal,
  });
  const offered: LogDownload[] = log?.downloads?.length
    ? log.downloads
    : [{ fileName: `nf-${workflowId}.log` }];
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const download of offered) {
    if (!download.fileName) continue;
    const stream = await client.GET("/workflow/{workflowId}/download", {
      params: { path: { workflowId }, query: { fileName: download.fileName, workspaceId } },
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
