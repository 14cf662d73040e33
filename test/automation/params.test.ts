import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { mergeParamsText, parseParamsText } from "../../src/automation/params.js";
import { ConfigurationError, launchPipeline, type LaunchSettings } from "../../src/index.js";
import { clientOf, seededEmulator } from "./setup.js";

describe("params merged over a saved launch's paramsText", () => {
  test("JSON: nested objects merge key by key, arrays and scalars replace, indentation kept", async () => {
    const saved = JSON.stringify(
      {
        input: "s3://a.csv",
        genome: "GRCh38",
        skip: ["qc", "trim"],
        opts: { cpus: 2, mem: "4 GB" },
      },
      null,
      4,
    );
    const merged = await mergeParamsText(saved, {
      genome: "GRCm39",
      skip: ["qc"],
      opts: { cpus: 8 },
      unset: undefined,
    });
    expect(JSON.parse(merged)).toEqual({
      input: "s3://a.csv",
      genome: "GRCm39",
      skip: ["qc"],
      opts: { cpus: 8, mem: "4 GB" },
    });
    expect(merged).toMatch(/^ {4}"input"/m);
  });

  test("JSON on one line stays on one line", async () => {
    await expect(mergeParamsText('{"a":1}', { b: 2 })).resolves.toBe('{"a":1,"b":2}');
  });

  test("YAML stays YAML, with its comments and untouched lines as they were", async () => {
    const saved = [
      "# pipeline inputs",
      "input: s3://bucket/samples.csv # the samplesheet",
      "genome: GRCh38",
      "opts:",
      "  cpus: 2",
      "  mem: 4 GB",
      "",
    ].join("\n");
    const merged = await mergeParamsText(saved, {
      genome: "GRCm39",
      opts: { cpus: 8 },
      extra: [1, 2],
    });
    expect(merged).toContain("# pipeline inputs\n");
    expect(merged).toContain("input: s3://bucket/samples.csv # the samplesheet\n");
    expect(merged).not.toMatch(/^\s*\{/);
    await expect(parseParamsText(merged)).resolves.toEqual({
      input: "s3://bucket/samples.csv",
      genome: "GRCm39",
      opts: { cpus: 8, mem: "4 GB" },
      extra: [1, 2],
    });
  });

  test("a YAML flow mapping is YAML, not JSON", async () => {
    const merged = await mergeParamsText("{a: 1, b: {c: 2}}", { b: { d: 3 } });
    await expect(parseParamsText(merged)).resolves.toEqual({ a: 1, b: { c: 2, d: 3 } });
  });

  test("JSON: values the caller did not touch keep their text (big integers, 1.0, 1e400)", async () => {
    const saved =
      '{\n  "id": 12345678901234567890,\n  "ratio": 1.0,\n  "huge": 1e400,\n  "opts": {"cpus": 2.50, "mem": "4 GB"}\n}\n';
    const merged = await mergeParamsText(saved, { opts: { mem: "8 GB" }, added: 1 });
    expect(merged).toBe(
      '{\n  "id": 12345678901234567890,\n  "ratio": 1.0,\n  "huge": 1e400,\n  "opts": {"cpus": 2.50, "mem": "8 GB"},\n  "added": 1\n}\n',
    );
  });

  test("YAML: values the caller did not touch keep their text, comments and layout", async () => {
    const saved =
      "id: 12345678901234567890\nratio: 1.0 # exact\nhuge: 1e400\nhex: 0x1F\nopts:\n  cpus: 2.50\n  mem: 4 GB\n";
    const merged = await mergeParamsText(saved, { opts: { mem: "8 GB" } });
    expect(merged).toBe(
      "id: 12345678901234567890\nratio: 1.0 # exact\nhuge: 1e400\nhex: 0x1F\nopts:\n  cpus: 2.50\n  mem: 8 GB\n",
    );
  });

  test("no saved params: the caller's, as JSON", async () => {
    for (const saved of [undefined, "", "  \n"]) {
      expect(JSON.parse(await mergeParamsText(saved, { a: { b: 1 } }))).toEqual({ a: { b: 1 } });
    }
  });

  test("a value replacing a scalar with an object, and null, are kept as given", async () => {
    const json = await mergeParamsText('{"a": 1, "b": 2}', { a: { x: 1 }, b: null });
    expect(JSON.parse(json)).toEqual({ a: { x: 1 }, b: null });
    const yaml = await mergeParamsText("a: 1\nb: 2\n", { a: { x: 1 }, b: null });
    await expect(parseParamsText(yaml)).resolves.toEqual({ a: { x: 1 }, b: null });
  });

  test('a "__proto__" param is data, not a prototype', async () => {
    const merged = await mergeParamsText(
      '{"a": 1}',
      JSON.parse('{"__proto__": {"polluted": true}}'),
    );
    expect(JSON.parse(merged)).toEqual(JSON.parse('{"a": 1, "__proto__": {"polluted": true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("saved params that are not an object, or not JSON nor YAML, are refused", async () => {
    await expect(mergeParamsText("[1, 2]", { a: 1 })).rejects.toBeInstanceOf(ConfigurationError);
    await expect(mergeParamsText("- 1\n- 2\n", { a: 1 })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(mergeParamsText("a: [1,\n", { a: 1 })).rejects.toBeInstanceOf(ConfigurationError);
  });
});

describe("launchPipeline's params: an object, a document as text, or a file", () => {
  const seed = {
    computeEnvs: [{ id: "ce1", name: "aws", workspaceId: 42, primary: true, workDir: "s3://w" }],
    pipelines: [{ name: "rnaseq", workspaceId: 42, launch: { paramsText: "input: a.csv\n" } }],
  };

  test("a YAML file, then YAML text over it, merged into the saved YAML; a param named file stays a param", async () => {
    const emulator = await seededEmulator(seed);
    const dir = await mkdtemp(path.join(tmpdir(), "params-"));
    try {
      const file = path.join(dir, "p.json");
      await writeFile(file, '{"file": "x.csv", "genome": "GRCh38"}');
      const client = clientOf(emulator);
      const { workflowId } = await launchPipeline(client, "rnaseq", {
        paramsFile: file,
        params: "genome: GRCm39\nskip: { qc: true }\n",
      });
      expect(emulator.state.runs.get(workflowId)!.launch.paramsText).toBe(
        "input: a.csv\nfile: x.csv\ngenome: GRCm39\nskip: { qc: true }\n",
      );
      const again = await launchPipeline(client, "rnaseq", { params: { file: "y.csv" } });
      expect(emulator.state.runs.get(again.workflowId)!.launch.paramsText).toBe(
        "input: a.csv\nfile: y.csv\n",
      );
    } finally {
      await emulator.close();
      await rm(dir, { recursive: true });
    }
  });

  test("a file that cannot be read, or params that are not an object: a ConfigurationError before any call", async () => {
    const emulator = await seededEmulator(seed);
    try {
      const client = clientOf(emulator);
      const cases: [LaunchSettings, string][] = [
        [
          { paramsFile: "/nonexistent/p.yaml" },
          "paramsFile /nonexistent/p.yaml: cannot read the file (ENOENT).",
        ],
        [
          { paramsFile: "/" },
          "paramsFile / is not a regular file (a directory): give the path of a file.",
        ],
        [{ params: "- a\n- b\n" }, "params must hold an object of params (name: value)."],
        [{ params: "genome: [GRCh38" }, "params is neither JSON nor YAML (line 1, column 16:"],
      ];
      for (const [settings, message] of cases) {
        const error = await launchPipeline(client, "rnaseq", settings).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ConfigurationError);
        expect((error as Error).message).toContain(message);
        // The text is not quoted: params may hold a secret.
        expect((error as Error).message).not.toContain("GRCh38");
      }
      expect(emulator.requests).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});
