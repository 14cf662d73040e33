/** Watching the runs of many workspaces until they end. */
import { mapLimited } from "../core/map-limited.js";
import { CONCURRENCY, RUN_STATUSES, isTerminal } from "./runs.js";
import { listRuns, listed, type ListRunsOptions, type ListedRun } from "./list-runs.js";
import { ForbiddenError } from "../errors/forbidden-error.js";
import { NotFoundError } from "../errors/not-found-error.js";
import type { SeqeraClient } from "../client/client.js";
import { identified } from "../model/identified.js";
import { sleep } from "../core/backoff.js";
import { listWorkspaces, type WorkspaceRef } from "./names.js";
import { noteUnknown, pollDelays, type PollOptions } from "./poll.js";
import type { RunStatus } from "../schema/types.js";

export interface WatchRunsOptions extends Omit<ListRunsOptions, "limit">, PollOptions {
  /** The workspaces to watch, ids or "organization/workspace"; default the client's. */
  workspaces?: readonly WorkspaceRef[];
  /** Every workspace of this organization (by name), as listWorkspaces gives them. */
  organization?: string;
  /**
   * End once every run seen has ended (SUCCEEDED, FAILED, CANCELLED or UNKNOWN), checked after
   * each poll: at the first when none is going. A status this release does not list is not an
   * end, as for waitForRun. Default false: the watch goes on until the loop leaves or the signal
   * aborts.
   */
  untilEnded?: boolean;
  /**
   * Called when a workspace's list answers 403 or 404 (the token lost its access, the workspace
   * was deleted), with the workspace as given (an id, or "organization/workspace"): it is no
   * longer watched, its runs not ended are given as "gone", and the others are watched on. Once
   * no workspace is left, the watch rejects with that error.
   */
  onWorkspaceLost?(workspace: string | undefined, error: ForbiddenError | NotFoundError): void;
}

/** What a watch saw happen to a run. */
export interface RunChange {
  /**
   * "seen": listed for the first time; "status": its status changed since the last poll;
   * "gone": it, or its workspace, answered 403 or 404 (deleted, or out of the token's reach),
   * and `run` is as last seen.
   */
  change: "seen" | "status" | "gone";
  run: ListedRun;
  /** Its status at the poll before, for a "status" change. */
  previousStatus?: RunStatus;
}

/** The statuses watched when `status` is not given: runs that are still going. */
const GOING: readonly RunStatus[] = ["SUBMITTED", "RUNNING"];

/**
 * Watches the runs of many workspaces: each poll lists each workspace's runs once (listRuns,
 * with the same filters; default the runs still going, SUBMITTED or RUNNING), one call per
 * workspace while it has at most 100 such runs, and yields what changed since the poll before.
 * A run that leaves the list before it was seen to end (it ended since, when only going runs
 * are listed) is described (`GET /workflow/{workflowId}`) for its status. The calls go through the
 * client's rate limiter, so 100+ workspaces stay within the token's limit: a poll then takes
 * longer, and the next starts `pollIntervalMs` after it ended (growing while nothing changes).
 *
 * @example
 * for await (const { run, previousStatus } of watchRuns(client, { organization: "acme", untilEnded: true }))
 *   console.log(run.workspaceId, run.id, previousStatus, "->", run.status);
 */
export async function* watchRuns(
  client: SeqeraClient,
  options: WatchRunsOptions = {},
): AsyncGenerator<RunChange, void, undefined> {
  const { signal, workspaces, organization, untilEnded, onWorkspaceLost, ...filters } = options;
  const delays = pollDelays(options);
  const named: { ref: WorkspaceRef | undefined; name: string | undefined }[] =
    organization !== undefined
      ? (await listWorkspaces(client, { organization, signal })).map((w) => ({
          ref: w.workspaceId,
          name: `${w.orgName}/${w.workspaceName}`,
        }))
      : (workspaces ?? [undefined]).map((ref) => ({
          ref,
          name: ref === undefined ? client.config.workspaceId : String(ref),
        }));
  let watched = named.map(({ ref, name }) => ({
    name,
    client: ref === undefined ? client : client.withWorkspace(ref),
    seen: new Map<string, ListedRun>(),
  }));
  const listOptions = { ...filters, status: filters.status ?? GOING, signal };
  for (;;) {
    let lostError: ForbiddenError | NotFoundError | undefined;
    const changes = (
      await mapLimited(watched, CONCURRENCY, async (workspace) => {
        try {
          return await pollWorkspace(workspace.client, workspace.seen, listOptions);
        } catch (error) {
          if (!isGone(error)) throw error;
          // Out of reach: its runs are too; the other workspaces' changes stand.
          lostError = error;
          onWorkspaceLost?.(workspace.name, error);
          const runs = [...workspace.seen.values()].filter((run) => !ended(run.status));
          workspace.seen.clear();
          watched = watched.filter((w) => w !== workspace);
          return runs.map((run): RunChange => ({ change: "gone", run }));
        }
      })
    ).flat();
    yield* changes;
    if (watched.length === 0 && lostError) throw lostError;
    if (untilEnded && watched.every((w) => [...w.seen.values()].every((r) => ended(r.status)))) {
      return;
    }
    await sleep(delays(changes.length > 0), signal);
  }
}

/** A run has ended at a status the release lists as an end; one it does not list is waited through. */
const ended = (status: RunStatus | null | undefined) => status != null && isTerminal(status);

/** 403 or 404: the run or workspace is out of the token's reach, or no longer exists. */
const isGone = (error: unknown): error is ForbiddenError | NotFoundError =>
  error instanceof ForbiddenError || error instanceof NotFoundError;

const LIST_RUNS = { method: "GET", path: "/workflow", operationId: "ListWorkflows" };

/** One workspace's poll: its list, compared with what was seen; a run gone from it is described. */
async function pollWorkspace(
  client: SeqeraClient,
  seen: Map<string, ListedRun>,
  options: ListRunsOptions,
): Promise<RunChange[]> {
  const changes: RunChange[] = [];
  const listedNow = new Set<string>();
  const known = { statuses: RUN_STATUSES, operation: LIST_RUNS, logger: client.config.logger };
  const note = (run: ListedRun) => {
    const before = seen.get(run.id);
    seen.set(run.id, run);
    if (before?.status === run.status) return;
    if (run.status) noteUnknown({ resource: "run", id: run.id, known }, run.status, undefined);
    changes.push(
      before ? { change: "status", run, previousStatus: before.status! } : { change: "seen", run },
    );
  };
  for await (const run of listRuns(client, options)) {
    listedNow.add(run.id);
    note(run);
  }
  for (const [id, before] of seen) {
    if (listedNow.has(id) || ended(before.status)) continue;
    const answer = await client
      .GET("/workflow/{workflowId}", {
        params: { path: { workflowId: id } },
        signal: options.signal,
      })
      .catch((error: unknown) => {
        if (isGone(error)) return undefined;
        throw error;
      });
    if (answer?.workflow) {
      const run = identified(answer.workflow, ["id"], "GET /workflow/{workflowId}", "workflow");
      note(listed(run, before.labels, before.workspaceId));
    } else if (answer === undefined) {
      seen.delete(id);
      changes.push({ change: "gone", run: before });
    }
  }
  return changes;
}

/** `work` over the items, at most `limit` at once; the results in the items' order. */
