/** Time constants, defined once. */

/** The longest delay a timer holds: setTimeout fires after 1 ms for anything longer (Infinity too). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export const HOUR_MS = 3_600_000;
