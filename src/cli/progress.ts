import type { Streams } from "./output.js";
import { terminalSafe } from "./terminal-text.js";

export interface Progress {
  /** Replaces the status line. */
  update(text: string): void;
  /** Clears the status line, leaving the terminal as it was. */
  done(): void;
}

const quiet: Progress = { update() {}, done() {} };

/**
 * A one-line status on stderr, rewritten in place, for long listings and waits; only when
 * stderr is a terminal, so pipes and CI logs stay clean. Redrawn at most every 100 ms.
 */
export function progressOn(stderr: Streams["stderr"]): Progress {
  if (!stderr.isTTY) return quiet;
  let last = 0;
  let shown = false;
  return {
    update(text) {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      shown = true;
      // The text may quote the service (a run's status): inert, and on one line.
      stderr.write(`\r\x1b[K${terminalSafe(text.replace(/\n/g, " "))}`);
    },
    done() {
      if (shown) stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}
