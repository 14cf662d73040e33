import { expect, test } from "vitest";
import { giveUpText } from "../../src/errors/give-up.js";
import { ResumeUnavailableError } from "../../src/errors/resume-unavailable-error.js";
import { amendTold, tell, toldAs, toldFor } from "../../src/errors/settings.js";

test("an error told per front end: its message is the library's, the others' from the same render", () => {
  const error = toldAs(new Error(), (front) => `set ${front}`);
  expect(error.message).toBe("set library");
  expect(tell(error, "cli")).toBe("set cli");
  amendTold(error, (told, front) => `${told} (${front} again)`);
  expect(tell(error, "action")).toBe("set action (action again)");
  expect(error.message).toBe("set library (library again)");
  expect(toldFor(new Error("plain"), "cli")).toBeUndefined();
  expect(tell(new Error("plain"), "cli")).toBe("plain");
  expect(tell("not an error", "cli")).toBe("not an error");
});

test("a run that cannot be resumed says what to run in the CLI's words", () => {
  const error = new ResumeUnavailableError("4Bi5");
  expect(error.message).toMatch(/Relaunch it without resume\.$/);
  expect(tell(error, "cli")).toMatch(/seqera-api relaunch 4Bi5 --no-resume$/);
});

test("a give-up in each front end's terms: the CLI cannot set the retry options, so it names none", () => {
  const base = { attempts: 3, elapsedMs: 1234.4, method: "GET" };
  const cases = [
    { ...base, stoppedBy: "maxAttempts", limit: 3 },
    { ...base, stoppedBy: "maxElapsedMs", limit: 60000 },
    { ...base, stoppedBy: "retryAfter", limit: 10000, retryAfterSeconds: 30 },
    { ...base, stoppedBy: "unsafe", method: "POST" },
  ] as const;
  for (const giveUp of cases) {
    expect(giveUpText(giveUp, "library")).toMatch(/retry|retryUnsafe/);
    expect(giveUpText(giveUp, "cli")).not.toMatch(/retry\.|retryUnsafe/);
  }
  expect(giveUpText(cases[0], "cli")).toBe("gave up after 3 attempts in 1234 ms");
});
