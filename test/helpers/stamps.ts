/** How the limiter's tests stamp requests, in whichever process they are. */
import { REQUEST_SENT } from "../../src/core/request-events.js";

/**
 * The machine's monotonic clock in ms (CLOCK_MONOTONIC on Linux, as Python's time.monotonic()):
 * the one clock whose readings compare across processes. `performance.timeOrigin +
 * performance.now()` does not: each process maps its own start to the wall clock, and a process
 * started on a busy CPU was measured 17 ms off its siblings, more than the limiter's 5 ms margin.
 */
export const machineMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * The `diagnostics_channel` names on which a request's leaving is told: undici's for Node's
 * fetch, REQUEST_SENT for the client's own transport. Each message's `request` has `path`.
 */
export const SENT_CHANNELS = ["undici:client:sendHeaders", REQUEST_SENT] as const;
