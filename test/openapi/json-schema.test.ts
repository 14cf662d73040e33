import { describe, expect, test } from "vitest";
import { toJsonSchema } from "../../src/openapi/json-schema.js";

describe("OpenAPI 3.0 to JSON Schema", () => {
  const account = {
    type: "object",
    required: ["id", "password", "name"],
    properties: {
      id: { type: "integer", readOnly: true },
      password: { type: "string", writeOnly: true },
      name: { type: "string" },
    },
  };

  test("readOnly properties are not required of requests, writeOnly ones not of responses", () => {
    expect(toJsonSchema(account, "request", "b").required).toEqual(["password", "name"]);
    expect(toJsonSchema(account, "response", "b").required).toEqual(["id", "name"]);
  });

  test("a request's optional property also takes null, which the service reads as absent", () => {
    const launch = {
      type: "object",
      required: ["pipeline"],
      properties: { pipeline: { type: "string" }, workDir: { type: "string" } },
    };
    const request = toJsonSchema(launch, "request", "b").properties;
    expect(request).toEqual({
      pipeline: { type: "string" },
      workDir: { type: ["string", "null"] },
    });
    // An answer's properties are as the schema (and its nullability rule) says.
    expect(toJsonSchema(launch, "response", "b").properties).toEqual(launch.properties);
  });

  test("nullable widens the type, an enum, or a typeless schema", () => {
    expect(toJsonSchema({ type: "string", nullable: true }, "response", "b")).toEqual({
      type: ["string", "null"],
    });
    expect(toJsonSchema({ type: "string", enum: ["a"], nullable: true }, "response", "b")).toEqual({
      type: ["string", "null"],
      enum: ["a", null],
    });
    expect(
      toJsonSchema(
        { allOf: [{ $ref: "#/components/schemas/X" }], nullable: true },
        "response",
        "b",
      ),
    ).toEqual({ anyOf: [{ allOf: [{ $ref: "b#/$defs/X" }] }, { type: "null" }] });
  });

  test("a discriminated oneOf dispatches on the tag instead", () => {
    const converted = toJsonSchema(
      {
        type: "object",
        discriminator: { propertyName: "kind", mapping: { a: "#/components/schemas/A" } },
        oneOf: [{ $ref: "#/components/schemas/A" }],
      },
      "request",
      "b",
    );
    expect(converted.oneOf).toBeUndefined();
    expect(converted.allOf).toEqual([
      {
        required: ["kind"],
        properties: { kind: { enum: ["a"] } },
        allOf: [
          {
            if: { required: ["kind"], properties: { kind: { const: "a" } } },
            then: { $ref: "b#/$defs/A" },
          },
        ],
      },
    ]);
  });
});
