import { describe, expect, test } from "vitest";
import { operations } from "../../generated/operations.js";
import {
  loadDocument,
  requestBody,
  successResponse,
} from "../../src/openapi/operations-document.js";
import { SAMPLE_DATE_TIME, sampleSchema } from "../../src/testing/sample.js";
import { schemaValidator } from "../../src/testing/validator.js";

const doc = loadDocument();
const entries = Object.entries(operations);

describe("sampled bodies validate against the schema they were sampled from", () => {
  test("every operation's success answer", () => {
    const invalid: string[] = [];
    let sampled = 0;
    for (const [key, info] of entries) {
      const { schema } = successResponse(doc, info);
      if (!schema || info.parseAs !== "json") continue;
      sampled++;
      const body = sampleSchema(doc, schema, { direction: "response", minimal: false });
      const error = schemaValidator("response").check(schema, body, "body");
      if (error) invalid.push(`${key}: ${error}`);
    }
    expect(invalid).toEqual([]);
    expect(sampled).toBeGreaterThan(entries.length / 2);
  });

  test("every operation's minimal request body", () => {
    const invalid: string[] = [];
    for (const [key, info] of entries) {
      for (const [type, schema] of Object.entries(requestBody(doc, info)?.content ?? {})) {
        if (!schema) continue;
        const body = sampleSchema(doc, schema, { direction: "request", minimal: true });
        const error = schemaValidator("request").check(schema, body, "body");
        if (error) invalid.push(`${key} (${type}): ${error}`);
      }
    }
    expect(invalid).toEqual([]);
  });
});

describe("sampling", () => {
  const describeWorkflow = successResponse(doc, operations["GET /workflow/{workflowId}"]!).schema!;

  test("is deterministic", () => {
    const options = { direction: "response", minimal: false } as const;
    expect(sampleSchema(doc, describeWorkflow, options)).toEqual(
      sampleSchema(doc, describeWorkflow, options),
    );
  });

  test("fills answers: nested objects, one-element arrays, the service's timestamps, first enum values", () => {
    const body = sampleSchema(doc, describeWorkflow, { direction: "response", minimal: false }) as {
      workflow: { dateCreated: string; status: string; runName: string };
      labels: unknown[];
    };
    expect(body.workflow.dateCreated).toBe(SAMPLE_DATE_TIME);
    expect(body.workflow.status).toBe("SUBMITTED");
    expect(body.workflow.runName).toBe("runName");
    expect(body.labels).toHaveLength(1);
  });

  test("picks the first variant of a discriminated union and sets its tag", () => {
    const body = sampleSchema(
      doc,
      { $ref: "#/components/schemas/ComputeConfig" },
      { direction: "request", minimal: true },
    );
    expect(body).toEqual({ discriminator: "altair-platform" });
  });

  test("leaves readOnly properties out of requests and writeOnly ones out of answers", () => {
    const ref = { $ref: "#/components/schemas/AwsSecurityKeys" };
    expect(sampleSchema(doc, ref, { direction: "response", minimal: false })).not.toHaveProperty(
      "secretKey",
    );
    expect(sampleSchema(doc, ref, { direction: "request", minimal: false })).toHaveProperty(
      "secretKey",
    );
    const workflow = { $ref: "#/components/schemas/Workflow" };
    expect(
      sampleSchema(doc, workflow, { direction: "request", minimal: false }),
    ).not.toHaveProperty("ownerId");
    expect(sampleSchema(doc, workflow, { direction: "response", minimal: false })).toHaveProperty(
      "ownerId",
    );
  });
});
