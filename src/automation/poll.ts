/** The polling shared by the waits and the log follower: a growing interval, a deadline, a signal. */
import { ConfigurationError } from "../errors/configuration-error.js";
import { offAbort, onAbort } from "../core/abort.js";
import { sleep } from "../core/backoff.js";
import { WaitTimeoutError } from "../errors/wait-timeout-error.js";
import { MAX_TIMER_MS } from "../core/time.js";
import type { Logger } from "../http/log.js";
import { isTransient } from "../http/retry.js";
import { SCHEMA_VERSION } from "../../generated/version.js";

export interface PollOptions {
  /** Wait between two polls at first, in ms; default 5000. */
  pollIntervalMs?: number;
  /** The wait grows by half after each poll that saw no change, up to this; default 60000. */
  maxPollIntervalMs?: number;
  /** Stops waiting: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface WaitOptions extends PollOptions {
  /** Give up after this many ms with a WaitTimeoutError naming the last status; default none. */
  maxWaitMs?: number;
  /**
   * How long polls may keep failing in a row with a transient failure (a 5xx but 501, 505,
   * 506, 508, 510 and 511; a 429, no response, a timeout, a body broken off) before the wait
   * rejects with the last one; such a poll is tried again after the usual interval. Default
   * 600000 (10 minutes); 0 for none. Other failures (a 4xx: the token, the id, the workspace;
   * a 501: the server does not do this) reject at once.
   */
  toleranceMs?: number;
}

export const DEFAULT_TOLERANCE_MS = 600_000;

export const DEFAULT_POLL_INTERVAL_MS = 5_000;
export const DEFAULT_MAX_POLL_INTERVAL_MS = 60_000;

/**
 * The waits between polls: `next(changed)` gives the next one, back to the first interval when
 * something changed (things are moving), else half as long again, up to the maximum.
 */
export function pollDelays(options: PollOptions): (changed: boolean) => number {
  const first = positive("pollIntervalMs", options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const max = Math.max(
    first,
    positive("maxPollIntervalMs", options.maxPollIntervalMs ?? DEFAULT_MAX_POLL_INTERVAL_MS),
  );
  let current = first;
  return (changed) => {
    if (changed) current = first;
    const delay = current;
    current = Math.min(current * 1.5, max);
    return delay;
  };
}

/** What a wait polls: how to describe the resource and read its status, and when it is done. */
export interface WaitSpec<T> {
  /** For the timeout error: "run", "compute environment". */
  resource: string;
  id: string;
  describe(signal: AbortSignal): Promise<T>;
  statusOf(value: T): string | undefined;
  isDone(value: T): boolean;
  /** Called with the first answer and each time the status changes. */
  onStatus?(value: T): void;
  /**
   * The statuses this release lists, and where to say that the resource reports another (the
   * client's logger, as a notice on the describe operation). Such a status never ends the
   * wait: the service adds statuses between releases, and says that is not a breaking change.
   */
  known?: {
    statuses: readonly string[];
    operation: { method: string; path: string; operationId: string };
    logger: Logger | undefined;
  };
}

/** Polls until `isDone`, within `maxWaitMs` and until `signal` aborts; resolves with the last answer. */
export async function waitFor<T>(spec: WaitSpec<T>, options: WaitOptions): Promise<T> {
  const delays = pollDelays(options);
  const toleranceMs = positive("toleranceMs", options.toleranceMs ?? DEFAULT_TOLERANCE_MS, true);
  let lastStatus: string | undefined;
  let polled = false;
  // When the current run of failed polls began.
  let failingSince: number | undefined;
  return withDeadline(
    options,
    async (signal) => {
      for (;;) {
        let value: T;
        try {
          value = await spec.describe(signal);
          failingSince = undefined;
        } catch (error) {
          failingSince ??= Date.now();
          if (!isTransient(error) || Date.now() - failingSince >= toleranceMs) throw error;
          await sleep(delays(false), signal);
          continue;
        }
        const status = spec.statusOf(value);
        const changed = !polled || status !== lastStatus;
        polled = true;
        lastStatus = status;
        if (changed) {
          if (status !== undefined) noteUnknown(spec, status, options.maxWaitMs);
          spec.onStatus?.(value);
        }
        if (spec.isDone(value)) return value;
        await sleep(delays(changed), signal);
      }
    },
    (maxWaitMs) => new WaitTimeoutError(spec.resource, spec.id, maxWaitMs, lastStatus),
  );
}

/**
 * Tells the logger, once per change, that the resource reports a status the release lacks (a
 * wait's, or a watch's).
 */
export function noteUnknown(
  spec: Pick<WaitSpec<unknown>, "resource" | "id" | "known">,
  status: string,
  maxWaitMs: number | undefined,
): void {
  const known = spec.known;
  if (!known || known.statuses.includes(status)) return;
  const until = maxWaitMs === undefined ? "" : ` (or until maxWaitMs, ${maxWaitMs} ms, runs out)`;
  const notice =
    `${spec.resource} ${spec.id} reports status ${JSON.stringify(status)}, which API ` +
    `${SCHEMA_VERSION} does not list (${known.statuses.join(", ")}): not an end; waiting on ` +
    `until it reports one${until}`;
  try {
    known.logger?.({ ...known.operation, attempt: 0, durationMs: 0, limiterWaitMs: 0, notice });
  } catch {
    // A faulty logger must not end the wait.
  }
}

const TIMED_OUT = Symbol("timed out");

/**
 * Runs `body` with a signal that aborts when the caller's does (with its reason) or when
 * `maxWaitMs` passes; a timeout rejects with `onTimeout(maxWaitMs)`, whatever call was in flight.
 */
async function withDeadline<T>(
  options: WaitOptions,
  body: (signal: AbortSignal) => Promise<T>,
  onTimeout: (maxWaitMs: number) => Error,
): Promise<T> {
  const { signal, maxWaitMs } = options;
  if (maxWaitMs !== undefined) positive("maxWaitMs", maxWaitMs, true);
  signal?.throwIfAborted();
  const controller = new AbortController();
  const forward = () => controller.abort(signal?.reason);
  if (signal) onAbort(signal, forward);
  const timer =
    maxWaitMs !== undefined && maxWaitMs <= MAX_TIMER_MS
      ? setTimeout(() => controller.abort(TIMED_OUT), maxWaitMs)
      : undefined;
  try {
    return await body(controller.signal);
  } catch (error) {
    if (controller.signal.reason === TIMED_OUT) throw onTimeout(maxWaitMs!);
    throw error;
  } finally {
    clearTimeout(timer);
    if (signal) offAbort(signal, forward);
  }
}

function positive(name: string, value: number, zeroAllowed = false): number {
  if (
    typeof value !== "number" ||
    Number.isNaN(value) ||
    value < 0 ||
    (!zeroAllowed && value === 0)
  ) {
    throw new ConfigurationError(`${name} must be a positive number of ms, got ${value}`);
  }
  return value;
}
