/**
 * The machine's monotonic clock in ms (CLOCK_MONOTONIC on Linux, as Python's time.monotonic()):
 * the one clock whose readings compare across processes. `performance.timeOrigin +
 * performance.now()` does not: each process maps its own start to the wall clock, and a process
 * started on a busy CPU was measured 17 ms off its siblings, more than the limiter's 5 ms margin.
 */
export const machineMs = (): number => Number(process.hrtime.bigint()) / 1e6;
