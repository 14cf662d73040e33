/** Removes every trace of a secret from text the server sent back (bodies, headers, a Location). */
export type Redact = (text: string) => string;

/**
 * Fragments this long are removed, not only the whole secret: an echo may be cut (V8's JSON
 * errors quote a window of the text, a proxy truncates) or split by escapes (`\/` in JSON).
 */
const FRAGMENT_CHARS = 8;
const MASK = "[REDACTED]";

export function createRedactor(secret: string): Redact {
  if (secret === "") return (text) => text;
  if (secret.length < FRAGMENT_CHARS) return wordRedactor(secret);
  const size = FRAGMENT_CHARS;
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

/**
 * A secret shorter than a fragment (a secret's value may be "1234") is removed only where it
 * stands as a whole word: masking every "a" of a message would mangle it and, by where the masks
 * fall, show the secret.
 */
function wordRedactor(secret: string): Redact {
  // The u flag allows escapes of syntax characters only ("-" is plain outside a class).
  const escaped = secret.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  const word = new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "gu");
  return (text) => text.replace(word, MASK);
}
