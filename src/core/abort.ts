/**
 * Abort listeners through one listener per signal. Users cancel a batch with one signal given
 * to every call; a listener per call (and per retry sleep, per limiter wait) on it made Node
 * warn (MaxListenersExceededWarning) from the 11th concurrent call. Here the signal carries one
 * listener while anything listens, none after.
 */

/** A function, or an object whose handleEvent is called (no closure per listener). */
export type AbortListener = (() => void) | { handleEvent(): void };

const listeners = new WeakMap<AbortSignal, Set<AbortListener>>();

/**
 * Calls `listener` once when `signal` aborts, unless removed first with offAbort. Like
 * addEventListener, nothing is called for a signal that has already aborted.
 */
export function onAbort(signal: AbortSignal, listener: AbortListener): void {
  let set = listeners.get(signal);
  if (!set) {
    const created = new Set<AbortListener>();
    set = created;
    listeners.set(signal, created);
    signal.addEventListener("abort", dispatch);
  }
  set.add(listener);
}

/** Removes a listener onAbort added; the signal's own listener goes with the last one. */
export function offAbort(signal: AbortSignal, listener: AbortListener): void {
  const set = listeners.get(signal);
  if (!set?.delete(listener) || set.size > 0) return;
  listeners.delete(signal);
  signal.removeEventListener("abort", dispatch);
}

function dispatch(this: AbortSignal): void {
  const set = listeners.get(this);
  listeners.delete(this);
  this.removeEventListener("abort", dispatch);
  for (const listener of set ?? []) {
    if (typeof listener === "function") listener();
    else listener.handleEvent();
  }
}
