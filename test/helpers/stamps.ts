/** How the limiter's tests stamp requests, in whichever process they are. */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { REQUEST_SENT } from "../../src/core/request-events.js";

/**
 * The machine's monotonic clock in ms (CLOCK_MONOTONIC on Linux, as Python's time.monotonic()):
 * the one clock whose readings compare across processes. `performance.timeOrigin +
 * performance.now()` does not: each process maps its own start to the wall clock, and a process
 * started on a busy CPU was measured 17 ms off its siblings, more than the limiter's 5 ms margin.
 */
export const machineMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Where a request's leaving is told: undici's channel for Node's fetch, the client's own. */
const SENT_CHANNELS = ["undici:client:sendHeaders", REQUEST_SENT];

/**
 * Calls `sent` with each request this process writes to its socket, and when (machineMs): the
 * pace the limiter keeps, whatever a server's clock sees through the machine's scheduling.
 * Returns what ends it.
 */
export function onSend(
  sent: (request: { path: string; method: string }, at: number) => void,
): () => void {
  const listener = (message: unknown) =>
    sent((message as { request: { path: string; method: string } }).request, machineMs());
  for (const name of SENT_CHANNELS) subscribe(name, listener);
  return () => SENT_CHANNELS.forEach((name) => unsubscribe(name, listener));
}
