import { PassThrough } from "node:stream";
import { expect, test, vi } from "vitest";
import { progressOn } from "../../src/cli/progress.js";

function stream(isTTY: boolean) {
  const out = Object.assign(new PassThrough(), { isTTY });
  let text = "";
  out.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return { out, text: () => text };
}

test("on a terminal: one line rewritten in place, at most every 100 ms, cleared when done", () => {
  vi.useFakeTimers();
  try {
    const { out, text } = stream(true);
    const progress = progressOn(out);
    progress.update("10 items");
    progress.update("20 items"); // within 100 ms: skipped
    vi.advanceTimersByTime(150);
    progress.update("30 items");
    progress.done();
    expect(text()).toBe("\r\x1b[K10 items\r\x1b[K30 items\r\x1b[K");
  } finally {
    vi.useRealTimers();
  }
});

test("in a pipe: nothing at all", () => {
  const { out, text } = stream(false);
  const progress = progressOn(out);
  progress.update("10 items");
  progress.done();
  expect(text()).toBe("");
});
