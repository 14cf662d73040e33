/** Report-ready summaries of the runs of a time window. */
import type { SeqeraClient } from "../client/client.js";
import { elapsedMs, instant, listRuns } from "./list-runs.js";
import type { RunStatus } from "../schema/types.js";

/** One run as a report gives it: times as ISO 8601, cost in the service's currency (USD). */
export interface RunReportRow {
  workflowId: string;
  runName: string | null;
  /** The pipeline's project name ("nf-core/rnaseq"), else its repository. */
  pipeline: string | null;
  /** The user who launched the run (its `userName`, as the search's `userName:` takes it). */
  userName: string | null;
  status: RunStatus | null;
  submit: string | null;
  start: string | null;
  complete: string | null;
  /** Start to end, in milliseconds; null for a run that has not started. */
  durationMs: number | null;
  /** What the run cost (an estimate while it runs); null where the service computes none. */
  cost: number | null;
  /** CPU time over its tasks, in hours. */
  cpuHours: number | null;
}

const HOUR_MS = 3_600_000;
/** How far before the window a run that completed in it may have been submitted, by default. */
const LONGEST_RUN_MS = 7 * 24 * HOUR_MS;

/**
 * The runs of the client's workspace that completed (`by: "completion"`, the default) or were
 * submitted (`by: "submission"`) in the window `after`–`before` (Dates or ISO 8601; `before`
 * default now), newest submission first, each with who launched it, its status, times,
 * duration, cost and CPU hours. Calls: the runs list, page by page (the service filters it by submission day), and
 * one `GET /workflow/{id}` per run reported (the list carries neither cost nor CPU time).
 * By completion, the list reaches back `longestRunMs` (default 7 days) before `after`: a run
 * that took longer and completed in the window is not reported unless it is raised.
 *
 * @example
 * for await (const run of runSummaries(client, { after: new Date(Date.now() - 7 * 86_400_000) }))
 *   console.log(run.runName, run.status, run.cost, run.cpuHours);
 */
export async function* runSummaries(
  client: SeqeraClient,
  options: {
    after: Date | string;
    before?: Date | string;
    by?: "completion" | "submission";
    longestRunMs?: number;
    signal?: AbortSignal;
  },
): AsyncGenerator<RunReportRow, void, undefined> {
  const { signal } = options;
  const after = instant(options.after, "runSummaries", "after");
  const before =
    options.before === undefined ? Date.now() : instant(options.before, "runSummaries", "before");
  const byCompletion = (options.by ?? "completion") === "completion";
  const from = byCompletion ? after - (options.longestRunMs ?? LONGEST_RUN_MS) : after;
  for await (const run of listRuns(client, {
    after: new Date(from),
    before: new Date(before),
    completedAfter: byCompletion ? new Date(after) : undefined,
    signal,
  })) {
    // listRuns bounds the completion from below only.
    if (byCompletion && !(Date.parse(run.complete ?? "") <= before)) continue;
    const answer = await client.GET("/workflow/{workflowId}", {
      params: { path: { workflowId: run.id } },
      signal,
    });
    const workflow = answer.workflow ?? run;
    const load = answer.progress?.workflowProgress;
    // The answer's own `cost` appears in API 1.181.0; before it, the progress's is the run's.
    const { cost } = answer as { cost?: number | null };
    yield {
      workflowId: run.id,
      runName: workflow.runName ?? null,
      pipeline: workflow.projectName ?? workflow.repository ?? null,
      userName: workflow.userName ?? null,
      status: workflow.status ?? null,
      submit: workflow.submit ?? null,
      start: workflow.start ?? null,
      complete: workflow.complete ?? null,
      durationMs: workflow.duration ?? elapsedMs(workflow) ?? null,
      cost: cost ?? load?.cost ?? null,
      cpuHours: load?.cpuTime == null ? null : load.cpuTime / HOUR_MS,
    };
  }
}
