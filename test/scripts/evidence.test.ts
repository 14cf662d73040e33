import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { parseSchema } from "../../scripts/schema/parse.js";
import { isRecord, successResponse, type OpenApiDocument } from "../../src/openapi/document.js";
import { loadDocument } from "../../src/openapi/load.js";
import {
  loadResponseValidator,
  responseValidatorFor,
  type ResponseIssue,
  type ResponseValidator,
} from "../../src/http/validate-response.js";
import { readRelease, RECORDED } from "../helpers/schema.js";

/**
 * The types against what the service really sends: every response body recorded from it
 * (test/fixtures/real-responses.lock.json, listed with its operation in manifest.json) is validated against
 * generated/openapi.json, with the OpenAPI → JSON Schema translation the emulator uses
 * (src/openapi/json-schema.ts, through the response validator users can turn on).
 */
const EVIDENCE = RECORDED;

interface Fixture {
  file: string;
  method: string;
  path: string;
  status: number;
}

/**
 * Bodies that disagree with the pinned release for a reason no fix should remove. A body
 * listed here must still disagree, in the way the reason says, or the entry is stale.
 */
const DISAGREEING: Record<string, { reason: string; issue: Partial<ResponseIssue> }> = {
  "tower-cli/get_pipelines_pipelineId_launch_200_5075f4f1d9ba.json": {
    reason:
      "recorded in 2021 from a server that tagged compute configs `platform: aws-batch`; every " +
      "later body, and every release since 1.85.0, names the tag `discriminator`, which the " +
      "schema's tagged union needs to pick the config's type",
    issue: { path: "/launch/computeEnv/config/discriminator", message: "is required but absent" },
  },
};

/**
 * Properties the recorded bodies carry that the schema does not declare, and why they are not
 * added (the others are, by schema/overlays/45-undeclared-properties.yaml). Keyed by the
 * component that declares the object, as `Schema.property`.
 */
const UNDECLARED: Record<string, string> = {
  "ActionResponseDto.message": "declared up to 1.102.0, dropped by 1.140.0",
  "AwsBatchConfig.platform": "older servers' name for the `discriminator` tag",
  "GithubActionEvent.@class": "Jackson's type metadata, not data",
  "PipelineDbDto.newUnknownAttribute": "made up by a tw CLI test of unknown attributes",
  "PipelineDbDto.organizationName": "older servers' name for `orgName`",
  "ProgressData.labels": "older servers' place for a run's labels, now in DescribeWorkflowResponse",
  "WorkflowLaunchResponse.computeEnvId": "older servers' form of `computeEnv`",
};

const manifest = JSON.parse(await readFile(path.join(EVIDENCE, "manifest.json"), "utf8")) as {
  fixtures: Fixture[];
};
const bodies = new Map<string, unknown>();
for (const f of manifest.fixtures) {
  bodies.set(f.file, JSON.parse(await readFile(path.join(EVIDENCE, f.file), "utf8")));
}
const check = (validator: ResponseValidator, f: Fixture): ResponseIssue[] =>
  validator(f.method, f.path, f.status, bodies.get(f.file));
const describeIssue = (i: ResponseIssue): string =>
  `${i.path} ${i.message} (value: ${JSON.stringify(i.value)})`;

let validator: ResponseValidator;
beforeAll(async () => {
  validator = await loadResponseValidator();
});

describe("every recorded body validates against the generated schema", () => {
  test.each(manifest.fixtures.filter((f) => !(f.file in DISAGREEING)))(
    "$method $path: $file",
    (fixture) => {
      const issues = check(validator, fixture).map((i) => `${fixture.file}: ${describeIssue(i)}`);
      expect(issues).toEqual([]);
    },
  );

  test.each(Object.entries(DISAGREEING).map(([file, entry]) => ({ file, ...entry })))(
    "except $file, as listed: $reason",
    ({ file, issue }) => {
      const fixture = manifest.fixtures.find((f) => f.file === file)!;
      expect(check(validator, fixture)).toEqual([expect.objectContaining(issue)]);
    },
  );
});

test("the published release alone rejects most of them: the rule and overlays are what fix it", async () => {
  const version = loadDocument().info.version;
  const published = parseSchema(await readRelease(version), version);
  const raw = await responseValidatorFor(published);
  const valid = (v: ResponseValidator) =>
    manifest.fixtures.filter((f) => check(v, f).length === 0).length;
  const before = valid(raw);
  const after = valid(validator);
  const total = manifest.fixtures.length;
  console.log(
    `recorded bodies valid: ${before}/${total} against ${version} as published, ` +
      `${after}/${total} against generated/openapi.json`,
  );
  expect(after).toBe(total - Object.keys(DISAGREEING).length);
  expect(before).toBeLessThan(after);
});

test("every property the recorded bodies carry is declared, or listed with its reason", () => {
  const doc = loadDocument();
  const found = new Map<string, string>();
  for (const f of manifest.fixtures) {
    if (f.file in DISAGREEING) continue;
    const schema = successResponse(doc, f).schema;
    undeclared(doc, schema, bodies.get(f.file), "(response)", (key, value) => {
      if (!found.has(key))
        found.set(key, `${f.file}: ${key} = ${JSON.stringify(value)?.slice(0, 60)}`);
    });
  }
  const unexplained = [...found].filter(([key]) => !(key in UNDECLARED)).map(([, at]) => at);
  expect(unexplained).toEqual([]);
  // An entry no body needs any more is stale.
  expect(Object.keys(UNDECLARED).filter((key) => !found.has(key))).toEqual([]);
});

/**
 * Calls `report` with `Owner.property` for each member of `value` that its schema does not
 * declare: no property of that name and no `additionalProperties`, in a schema that declares
 * some. `$ref`s, allOf members and the variant a discriminator picks are followed; the owner is
 * the last component entered.
 */
function undeclared(
  doc: OpenApiDocument,
  schema: unknown,
  value: unknown,
  owner: string,
  report: (key: string, value: unknown) => void,
): void {
  if (value === null || typeof value !== "object") return;
  const shape = {
    owner,
    properties: {} as Record<string, unknown>,
    more: undefined as unknown,
    items: undefined as unknown,
  };
  collect(doc, schema, value, shape);
  if (Array.isArray(value)) {
    for (const item of value) undeclared(doc, shape.items, item, shape.owner, report);
    return;
  }
  // A schema that declares no member (free-form, `{}`) admits any.
  if (Object.keys(shape.properties).length === 0 && shape.more === undefined) return;
  for (const [key, member] of Object.entries(value)) {
    if (key in shape.properties)
      undeclared(doc, shape.properties[key], member, shape.owner, report);
    else if (shape.more === true || isRecord(shape.more))
      undeclared(doc, shape.more, member, shape.owner, report);
    else report(`${shape.owner}.${key}`, member);
  }
}

function collect(
  doc: OpenApiDocument,
  node: unknown,
  value: object,
  shape: { owner: string; properties: Record<string, unknown>; more: unknown; items: unknown },
): void {
  if (!isRecord(node)) return;
  if (typeof node.$ref === "string") {
    shape.owner = node.$ref.slice(node.$ref.lastIndexOf("/") + 1);
    collect(doc, doc.components.schemas[shape.owner], value, shape);
    return;
  }
  if (isRecord(node.properties)) Object.assign(shape.properties, node.properties);
  if (node.additionalProperties !== undefined) shape.more = node.additionalProperties;
  if (node.items !== undefined) shape.items = node.items;
  for (const member of [node.allOf, node.anyOf].flatMap((m) => (Array.isArray(m) ? m : []))) {
    collect(doc, member, value, shape);
  }
  const discriminator = isRecord(node.discriminator) ? node.discriminator : undefined;
  if (discriminator && isRecord(discriminator.mapping) && !Array.isArray(value)) {
    const tag = (value as Record<string, unknown>)[String(discriminator.propertyName)];
    const ref = discriminator.mapping[String(tag)];
    if (typeof ref === "string") collect(doc, { $ref: ref }, value, shape);
  } else if (Array.isArray(node.oneOf)) {
    for (const member of node.oneOf) collect(doc, member, value, shape);
  }
}
