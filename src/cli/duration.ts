import { UsageError } from "../errors/cli-errors.js";
import { HOUR_MS, MAX_TIMER_MS } from "../core/time.js";

const UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: HOUR_MS } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

/** "90s", "30m", "1.5h", "500ms"; a bare number is seconds. Returns milliseconds. */
export function parseDuration(flag: string, text: string): number {
  const match = DURATION.exec(text.trim());
  const ms = match ? Number(match[1]) * UNITS_MS[(match[2] ?? "s") as keyof typeof UNITS_MS] : NaN;
  if (!(ms > 0 && ms <= MAX_TIMER_MS)) {
    throw new UsageError(`${flag} ${text}: expected a duration such as 90s, 30m or 2h.`);
  }
  return ms;
}

const AGO_UNITS_MS = { s: 1000, m: 60_000, h: HOUR_MS, d: 24 * HOUR_MS } as const;
const AGO = /^(\d+(?:\.\d+)?)(s|m|h|d)$/;

/**
 * An --after/--before value: an ISO 8601 instant or UTC day (YYYY-MM-DD) as given, or a duration
 * ago ("24h", "7d") as that instant.
 */
export function pastInstant(flag: string, text: string): string {
  const trimmed = text.trim();
  const ago = AGO.exec(trimmed);
  if (ago) {
    const ms = Number(ago[1]) * AGO_UNITS_MS[ago[2] as keyof typeof AGO_UNITS_MS];
    return new Date(Date.now() - ms).toISOString();
  }
  if (/^\d{4}-\d\d-\d\d/.test(trimmed) && !Number.isNaN(Date.parse(trimmed))) return trimmed;
  throw new UsageError(
    `${flag} ${text}: expected an instant (2024-05-10T09:00:00Z), a day (2024-05-10) or a duration ago (24h, 7d).`,
  );
}

/** As the user would have written it: 500ms, 90s, 30m, 2h. */
export function formatMs(ms: number): string {
  for (const [unit, size] of [
    ["h", HOUR_MS],
    ["m", 60_000],
    ["s", 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
