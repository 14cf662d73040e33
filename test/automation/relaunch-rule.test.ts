import { expect, test } from "vitest";
import { ConfigurationError } from "../../src/index.js";
import { checkResumeKeeps } from "../../src/automation/relaunch-rule.js";
import { tell } from "../../src/errors/settings.js";

const refusal = (options: Parameters<typeof checkResumeKeeps>[0]) => {
  try {
    checkResumeKeeps(options);
  } catch (error) {
    return error as ConfigurationError;
  }
  return undefined;
};

test("a resumed relaunch keeps its work directory: one error, told in each front end's words", () => {
  for (const resume of [undefined, true, "if-available"] as const) {
    const error = refusal({ resume, workDir: "s3://other" });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toMatchObject({ option: "workDir" });
  }
  const error = refusal({ workDir: "s3://other" });
  const why = "a resumed run keeps its work directory, where its cached tasks are.";
  expect(error!.message).toBe(`\`workDir\` needs \`resume: false\`: ${why}`);
  expect(tell(error, "cli")).toBe(`--work-dir needs --no-resume: ${why}`);
  expect(tell(error, "action")).toBe(
    `the workdir input needs the resume input set to false: ${why}`,
  );
});

test("a resumed relaunch keeps its pipeline; without resume, both may change", () => {
  const error = refusal({ pipeline: "https://github.com/nf-core/sarek" });
  expect(error).toMatchObject({ option: "pipeline" });
  expect(tell(error, "cli")).toBe(
    "--pipeline needs --no-resume: a resumed run keeps its pipeline.",
  );
  expect(
    refusal({ resume: false, workDir: "s3://other", pipeline: "https://x/y" }),
  ).toBeUndefined();
  expect(refusal({})).toBeUndefined();
});
