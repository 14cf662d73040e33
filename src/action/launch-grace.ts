/**
 * The launch request and the step's `timeout`: a request already on the wire when the deadline
 * passes may have created the run, so it is given time to answer and the run is not lost.
 */
import { DeadlineError } from "../errors/cli-errors.js";
import { formatMs } from "../cli/duration.js";
import type { FetchFunction } from "../http/request.js";

/** How much longer a launch request on the wire is waited for: one attempt's default timeout. */
export const LAUNCH_GRACE_MS = 30_000;

/** Whether the launch request itself (`POST /workflow/launch`) went on the wire. */
export interface LaunchWatch {
  sent: boolean;
}

/** `fetch`, noting in `watch` when it sends the launch request. */
export function watchLaunch(fetch: FetchFunction, watch: LaunchWatch): FetchFunction {
  return (request, init) => {
    if (request.method === "POST" && new URL(request.url).pathname.endsWith("/workflow/launch")) {
      watch.sent = true;
    }
    return fetch(request, init);
  };
}

/**
 * The launch's signal from the step's: the deadline stops its look-ups at once, but a launch
 * request already sent has LAUNCH_GRACE_MS more (said in the log); other stops are at once.
 */
export function gracefulSignal(
  signal: AbortSignal,
  watch: LaunchWatch,
  log: (line: string) => void,
): AbortSignal {
  const graceful = new AbortController();
  signal.addEventListener(
    "abort",
    () => {
      if (!(signal.reason instanceof DeadlineError && watch.sent)) {
        graceful.abort(signal.reason);
        return;
      }
      log(
        `The timeout passed while the launch request was on its way: waiting up to ${formatMs(LAUNCH_GRACE_MS)} for its answer, so that the run is not lost.`,
      );
      setTimeout(() => graceful.abort(signal.reason), LAUNCH_GRACE_MS).unref();
    },
    { once: true },
  );
  return graceful.signal;
}
