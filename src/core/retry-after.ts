/**
 * The one reader of `Retry-After` (errors report it, retries wait for it): whole seconds, as the
 * service sends them (0 included), or an HTTP date. Anything else (negative, fractional, "soon",
 * an unparseable date) is undefined: a server's garbage must not become a NaN or negative wait.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date names a day of the week first; a bare number like "1.5" is not a date.
  if (!/^[A-Za-z]{3},/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
