import { readFileSync } from "node:fs";
import path from "node:path";
import { bench, describe } from "vitest";
import { loadResponseValidator } from "../../src/http/validate-response.js";
import { RECORDED as RECORDED_DIR } from "../helpers/schema.js";

/**
 * What response validation costs per call, on describe-run answers recorded from the service
 * (a typical one, and one carrying 150 kB of pipeline parameters), each validated warm next to
 * the JSON.parse every call pays anyway. Off, nothing is loaded and nothing runs.
 */
const RECORDED = path.join(RECORDED_DIR, "tower-cli");
const validate = await loadResponseValidator();

for (const file of [
  "get_workflow_workflowId_200_ca67d2ea3e48.json",
  "get_workflow_workflowId_200_4ace08d8f1db.json",
]) {
  const text = readFileSync(path.join(RECORDED, file), "utf8");
  const body: unknown = JSON.parse(text);
  // Compiled on first use: warmed before measuring, as a client is after its first call.
  if (validate("GET", "/workflow/{workflowId}", 200, body).length > 0) throw new Error(file);
  describe(`GET /workflow/{workflowId}, ${(text.length / 1024).toFixed(1)} kB answer`, () => {
    bench("JSON.parse (paid by every call)", () => {
      JSON.parse(text);
    });
    bench("validate (validateResponses on)", () => {
      validate("GET", "/workflow/{workflowId}", 200, body);
    });
  });
}

describe("first use in a process", () => {
  const body: unknown = JSON.parse(
    readFileSync(path.join(RECORDED, "get_workflow_workflowId_200_ca67d2ea3e48.json"), "utf8"),
  );
  bench(
    "loadResponseValidator() and the first validation (Ajv set-up, compile)",
    async () => {
      const fresh = await loadResponseValidator();
      fresh("GET", "/workflow/{workflowId}", 200, body);
    },
    { iterations: 5, time: 0 },
  );
});
