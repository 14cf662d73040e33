/**
 * A body key the operation does not take is a compile error that names the key, at any depth:
 * what the type tests (test/types/client.test-d.ts) cannot say, since `@ts-expect-error` takes
 * any error. One program over a file of typed calls, with the project's compiler options.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The type-check's messages for `calls`, made with a `client: SeqeraClient` in scope. */
function typeErrors(calls: string): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "body-keys-"));
  try {
    const file = path.join(dir, "calls.mts");
    const types = path.join(ROOT, "src", "client", "types.js");
    const header = `import type { SeqeraClient } from ${JSON.stringify(types)};\n`;
    writeFileSync(file, `${header}export async function f(client: SeqeraClient) {\n${calls}\n}\n`);
    const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
    const program = ts.createProgram([file], options);
    return ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a typo in a body, at its top or nested, is refused by name; the right keys compile", () => {
  // Bodies of the same shape on every release line.
  const organization = `{ name: "acme", fullName: "Acme" }`;
  const errors = typeErrors(`
    await client.POST("/orgs", { body: { organization: ${organization}, logoID: "x" } });
    await client.POST("/workflow/launch", { body: { launch: { pipeline: "p", lanch: true } } });
    await client.POST("/orgs", { body: { organization: ${organization}, logoId: "x" } });
    await client.POST("/workflow/launch", { body: { launch: { pipeline: "p", revision: "main" } } });
  `);
  expect(errors).toEqual([
    expect.stringMatching(
      /^Object literal may only specify known properties, but 'logoID' does not exist in type .*Did you mean to write 'logoId'\?$/,
    ),
    expect.stringMatching(
      /^Object literal may only specify known properties, and 'lanch' does not exist in type /,
    ),
  ]);
});
