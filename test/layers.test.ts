import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

/** Runs the project's layer check (its own config) over a tree of files, as `npm test` does. */
async function checkLayers(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "layers-"));
  dirs.push(dir);
  cpSync(path.join(root, ".dependency-cruiser.cjs"), path.join(dir, ".dependency-cruiser.cjs"));
  writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }),
  );
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const bin = path.join(root, "node_modules", ".bin", "depcruise");
  return run(bin, ["src", "--config", ".dependency-cruiser.cjs"], { cwd: dir }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe("the layer check (npm run check:layers)", () => {
  test("passes a tree that keeps the layers' order", async () => {
    const result = await checkLayers({
      "src/index.ts": 'export * from "./client/client.js";\n',
      "src/client/client.ts": 'import { x } from "../http/a.js";\nexport const y = x;\n',
      "src/http/a.ts": 'import { e } from "../errors/e.js";\nexport const x = e;\n',
      "src/errors/e.ts": "export const e = 1;\n",
      "src/testing/t.ts": 'import { e } from "../errors/e.js";\nexport const t = e;\n',
    });
    expect(result.stdout).toContain("no dependency violations found");
    expect(result.code).toBe(0);
  });

  test("fails on a layer importing one above it, on the emulator importing the client, on a circle", async () => {
    const result = await checkLayers({
      "src/http/a.ts": 'import { c } from "../cli/c.js";\nexport const a = c;\n',
      "src/cli/c.ts": "export const c = 1;\n",
      "src/testing/t.ts": 'import { k } from "../client/k.js";\nexport const t = k;\n',
      "src/client/k.ts": 'import { l } from "./l.js";\nexport const k = l;\n',
      "src/client/l.ts": 'import { k } from "./k.js";\nexport const l = () => k;\n',
      "src/stray.ts": 'import { e } from "./errors/e.js";\nexport const s = e;\n',
      "src/errors/e.ts": "export const e = 1;\n",
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout).toMatch(/layer-http: src\/http\/a\.ts → src\/cli\/c\.ts/);
    expect(result.stdout).toMatch(/layer-testing: src\/testing\/t\.ts → src\/client\/k\.ts/);
    expect(result.stdout).toMatch(/no-circular: src\/client\/[kl]\.ts/);
    expect(result.stdout).toMatch(/no-root-files: src\/stray\.ts/);
  });
});
