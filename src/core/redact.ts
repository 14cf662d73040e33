/** Removes every trace of a secret from text the server sent back (bodies, headers, a Location). */
export type Redact = (text: string) => string;

/**
 * Fragments this long are removed, not only the whole secret: an echo may be cut (V8's JSON
 * errors quote a window of the text, a proxy truncates) or split by escapes (`\/` in JSON).
 */
const FRAGMENT_CHARS = 8;
const MASK = "[REDACTED]";

export function createRedactor(secret: string): Redact {
  const size = Math.min(FRAGMENT_CHARS, secret.length);
  const fragments = new Set<string>();
  for (let i = 0; i + size <= secret.length; i++) fragments.add(secret.slice(i, i + size));
  return (text) => {
    let out = "";
    let copied = 0; // text before this index is in `out`
    let runStart = -1;
    let runEnd = -1;
    for (let i = 0; i + size <= text.length; i++) {
      if (!fragments.has(text.slice(i, i + size))) continue;
      if (i > runEnd) {
        // A new run of secret text: flush the previous one.
        if (runStart >= 0) {
          out += text.slice(copied, runStart) + MASK;
          copied = runEnd;
        }
        runStart = i;
      }
      runEnd = i + size;
    }
    if (runStart < 0) return text;
    return out + text.slice(copied, runStart) + MASK + text.slice(runEnd);
  };
}
