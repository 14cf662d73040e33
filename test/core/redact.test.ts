import { expect, test } from "vitest";
import { createRedactor } from "../../src/core/redact.js";

test("a secret of a fragment or more: every piece of it goes, cut or whole", () => {
  const redact = createRedactor("abcdefghijklmnop");
  expect(redact("token abcdefghijklmnop here")).toBe("token [REDACTED] here");
  expect(redact("cut: …ghijklmnop")).toBe("cut: …[REDACTED]");
});

test.each([
  ["a", "bad port: a launch of a", "bad port: [REDACTED] launch of [REDACTED]"],
  [
    "1234",
    "value '1234' refused; 12345 and x1234 are not it",
    "value '[REDACTED]' refused; 12345 and x1234 are not it",
  ],
  ["a.b", "axb stays, a.b goes", "axb stays, [REDACTED] goes"],
  ["(x|y)-[", "regex (x|y)-[ text", "regex [REDACTED] text"],
  ["é", "café é", "café [REDACTED]"],
])("a short secret %j goes only where it stands as a word", (secret, text, redacted) => {
  expect(createRedactor(secret)(text)).toBe(redacted);
});

test("an empty secret removes nothing", () => {
  expect(createRedactor("")("nothing to hide")).toBe("nothing to hide");
});
