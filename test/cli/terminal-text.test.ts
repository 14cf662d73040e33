import { expect, test } from "vitest";
import { terminalSafe, terminalSafeJson } from "../../src/cli/terminal-text.js";

test("every control a terminal acts on is shown as \\xHH; text, tabs and line ends stay", () => {
  const controls = [
    ...Array.from({ length: 0x20 }, (_, i) => i).filter((i) => i !== 0x09 && i !== 0x0a),
    ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  ];
  for (const code of controls) {
    const safe = terminalSafe(`a${String.fromCharCode(code)}b`);
    expect(safe).toBe(`a\\x${code.toString(16).padStart(2, "0")}b`);
  }
  expect(terminalSafe("é ✓ 日本\tcol\r\nnext\n")).toBe("é ✓ 日本\tcol\r\nnext\n");
  expect(terminalSafe("progress 10%\rprogress 20%")).toBe("progress 10%\\x0dprogress 20%");
});

test("JSON for a terminal: C1 controls and DEL escaped, the same value when parsed", () => {
  const value = { id: "a\x1b]0;t\x07b\x9b31mc\x7fd\x85" };
  const json = terminalSafeJson(JSON.stringify(value));
  expect(json).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
  expect(JSON.parse(json)).toEqual(value);
});
