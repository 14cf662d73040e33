/**
 * Schema patterns cannot freeze the process: every pattern of the pinned schema and of the four
 * releases runs through RE2 (linear time), those RE2 cannot read rewritten to equivalents, and
 * each is run on adversarial inputs up to its maxLength within a generous bound.
 */
import { RE2JS } from "re2js";
import { describe, expect, test } from "vitest";
import { parseSchema } from "../../scripts/schema/parse.js";
import { ResponseValidationError, type SeqeraApiError } from "../../src/index.js";
import { loadDocument } from "../../src/openapi/load.js";
import { linearRegExp, REWRITES } from "../../src/openapi/patterns.js";
import { startEmulator } from "../../src/testing/index.js";
import { clientFor } from "../helpers/client.js";
import { useTestServer } from "../helpers/server.js";
import { readRelease, RELEASES } from "../helpers/schema.js";

const unchecked: string[] = [];
const engine = linearRegExp(RE2JS, (pattern, reason) => unchecked.push(`${pattern}: ${reason}`));

/** Every `pattern` in a document, with the largest maxLength it is used with (none: 1,000). */
function patternsOf(node: unknown, found: Map<string, number>): Map<string, number> {
  if (Array.isArray(node)) for (const item of node) patternsOf(item, found);
  else if (node !== null && typeof node === "object") {
    const { pattern, maxLength } = node as { pattern?: unknown; maxLength?: unknown };
    if (typeof pattern === "string") {
      const length = typeof maxLength === "number" ? maxLength : 1000;
      found.set(pattern, Math.max(found.get(pattern) ?? 0, length));
    }
    for (const value of Object.values(node)) patternsOf(value, found);
  }
  return found;
}

const patterns = patternsOf(loadDocument(), new Map());
for (const version of RELEASES)
  patternsOf(parseSchema(await readRelease(version), version), patterns);

/** Long runs ending in a character that breaks the match: what makes backtracking explode. */
function adversarial(maxLength: number): string[] {
  const inputs: string[] = [];
  for (const n of [16, 31, 64, maxLength - 1, maxLength]) {
    if (n < 2 || n > maxLength) continue;
    for (const unit of ["a", "0", "_", "-", "a_", "a-", "_a", "-a", "é", " "]) {
      const run = unit.repeat(Math.ceil(n / unit.length)).slice(0, n - 1);
      for (const end of ["!", "_", "-", "/", "__", "a"]) inputs.push(`a${run}${end}`.slice(0, n));
    }
  }
  return inputs;
}

describe("every schema pattern runs in linear time", () => {
  test("finds the patterns of the pinned schema and the four releases", () => {
    expect([...patterns.keys()]).toEqual(expect.arrayContaining(Object.keys(REWRITES)));
  });

  test.each([...patterns].map(([pattern, maxLength]) => ({ pattern, maxLength })))(
    "$pattern (maxLength $maxLength): RE2, adversarial inputs in well under a second",
    ({ pattern, maxLength }) => {
      const regex = engine(pattern, "u");
      const inputs = adversarial(maxLength);
      const start = performance.now();
      for (const input of inputs) regex.test(input);
      const elapsed = performance.now() - start;
      // V8 took 35 s on one 31-character input of PipelineSecret.name's pattern; RE2 takes
      // microseconds. The bound is generous for a shared CI machine.
      expect(elapsed).toBeLessThan(2000);
      expect(unchecked).toEqual([]);
    },
  );

  test("a pattern RE2 cannot read and not rewritten is reported and not checked", () => {
    const reports: string[] = [];
    const regex = linearRegExp(RE2JS, (pattern, reason) => reports.push(`${pattern} ${reason}`))(
      "^(a)\\1$",
      "u",
    );
    expect(regex.test("ab")).toBe(true);
    expect(reports).toEqual([expect.stringMatching(/^\^\(a\)\\1\$ .*\\1/)]);
  });
});

describe("the rewrites accept exactly what the originals do", () => {
  /** Every string over `alphabet` up to `length` characters. */
  function* strings(alphabet: string[], length: number): Generator<string> {
    let level = [""];
    for (let n = 0; n <= length; n++) {
      yield* level;
      level = level.flatMap((s) => alphabet.map((c) => s + c));
    }
  }
  /** Names of `pieces` pieces alternating one-character runs and "_": V8 is fast on these. */
  function longNames(): string[] {
    const names: string[] = [];
    for (let pieces = 40; pieces <= 56; pieces++) {
      for (const first of ["a", "_"]) {
        for (const startsWithRun of [true, false]) {
          let rest = "";
          for (let i = 0; i < pieces; i++) rest += (i % 2 === 0) === startsWithRun ? "b" : "_";
          names.push(first + rest, `${first + rest}-`, `${first}a${rest}`);
        }
      }
    }
    for (let length = 30; length <= 45; length++) {
      names.push("a".repeat(length), `a${"-a".repeat(length)}`.slice(0, length));
    }
    return names;
  }

  const lookaround = Object.keys(REWRITES).filter((p) => !p.includes("\\p{"));
  test.each(lookaround)("%s", (pattern) => {
    const original = new RegExp(pattern, "u");
    const rewritten = engine(pattern, "u");
    let compared = 0;
    for (const input of [...strings(["a", "1", "_", "-"], 7), ...longNames()]) {
      expect([input, rewritten.test(input)]).toEqual([input, original.test(input)]);
      compared++;
    }
    expect(compared).toBeGreaterThan(20_000);
  });

  test("Java's [\\p{Graph}&&[^/]]\\p{Graph}+: two visible ASCII characters, the first not /", () => {
    const regex = engine("[\\p{Graph}&&[^/]]\\p{Graph}+", "u");
    expect(["ab", "a/", "x/y", " !~"].map((s) => regex.test(s))).toEqual([true, true, true, true]);
    expect(["a", "/a", "//", "a b", "é"].map((s) => regex.test(s))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

const server = await useTestServer();

describe("what a user sees", () => {
  // A name of 31 characters whose last one the pattern refuses: 35 s under V8's backtracking.
  const HOSTILE = `a${"1".repeat(29)}!`;

  test('validateResponses: "throw" on a hostile PipelineSecret.name answers at once', async () => {
    server.reply({ body: { pipelineSecrets: [{ id: 1, name: HOSTILE }], totalSize: 1 } });
    const start = performance.now();
    const error = (await clientFor(server, { validateResponses: "throw" })
      .GET("/pipeline-secrets")
      .catch((e: unknown) => e)) as SeqeraApiError;
    expect(performance.now() - start).toBeLessThan(5000);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain("/pipelineSecrets/0/name");
  });

  test("the emulator refuses the same name in a request at once", async () => {
    const emulator = await startEmulator({ tokens: ["tok"] });
    try {
      const start = performance.now();
      const answer = await fetch(`${emulator.url}/pipeline-secrets`, {
        method: "POST",
        headers: { authorization: "Bearer tok", "content-type": "application/json" },
        body: JSON.stringify({ name: HOSTILE, value: "v" }),
      });
      expect(performance.now() - start).toBeLessThan(5000);
      expect(answer.status).toBe(400);
      expect(await answer.text()).toMatch(/^{"message":"Invalid secret name/);
    } finally {
      await emulator.close();
    }
  });
});
