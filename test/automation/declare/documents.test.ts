import { expect, test } from "vitest";
import { ConfigurationError, planResources } from "../../../src/index.js";
import { clientOf, seededEmulator, withEmulator } from "../setup.js";

/** The message planResources rejects with for this file; the emulator must have had no request. */
async function refusal(text: string, env: Record<string, string> = {}): Promise<string> {
  return withEmulator(seededEmulator(), async (emu) => {
    const error = await planResources(clientOf(emu), [{ text, file: "acme.yml" }], { env }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(emu.requests).toEqual([]);
    return (error as Error).message;
  });
}

test("an unknown key is refused with the near names and its file:line, before any request", async () => {
  expect(
    await refusal("compute-envs:\n  - name: aws\n    type: aws-batch\n    work_dir: s3://b\n"),
  ).toBe('acme.yml:4: compute-envs takes no key "work_dir" (did you mean work-dir?)');
});

test("an unknown kind is refused with the near kinds", async () => {
  expect(await refusal("---\ncompute-env:\n  - name: aws\n")).toBe(
    'acme.yml:2: unknown kind "compute-env" (did you mean compute-envs?)',
  );
});

test("an unset variable is refused by name, never sent empty; a set one is used as is", async () => {
  const file = "secrets:\n  - name: TOKEN\n    value: ${GITHUB_TOKEN}\n";
  expect(await refusal(file)).toBe("acme.yml:3: $GITHUB_TOKEN is not set in the environment");
});

test("YAML that does not parse is refused at its line", async () => {
  expect(await refusal("labels:\n  - name: a\n   value: [b\n")).toMatch(/^acme\.yml:3: /);
});

test("on_exists takes fail, ignore, overwrite or update", async () => {
  expect(await refusal("labels:\n  - name: a\n    on_exists: replace\n")).toBe(
    'acme.yml:2: labels "a": on_exists is one of fail, ignore, overwrite, update, not "replace"',
  );
});

test("a reference to what is neither in the files nor in the service is an error of the plan", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const file =
      "pipelines:\n  - name: hello\n    url: https://github.com/nextflow-io/hello\n    compute-env: aws-eu\n    workspace: acme/prod\n";
    await expect(planResources(clientOf(emu), [{ text: file, file: "p.yml" }])).rejects.toThrow(
      'p.yml:2: pipelines "hello": compute environment "aws-eu" is neither in the files nor in acme/prod',
    );
    expect(emu.requests.map((r) => r.method).filter((m) => m !== "GET")).toEqual([]);
  });
});

test("a key of seqerakit's not read yet is refused as such, with why", async () => {
  const studio = "studios:\n  - name: rstudio\n    wait: RUNNING\n";
  expect(await refusal(studio)).toBe(
    "acme.yml:3: studios: wait is not supported yet: waiting for a studio's status is not planned yet",
  );
});

test("YAML aliases are resolved; an alias bomb is refused at its line", async () => {
  await withEmulator(seededEmulator(), async (emu) => {
    const file =
      "labels:\n  - name: a\n    value: &v shared\n    workspace: acme/prod\n  - name: b\n    value: *v\n    workspace: acme/prod\n";
    const plan = await planResources(clientOf(emu), [file]);
    expect(plan.steps[1]?.changes).toContainEqual({ field: "value", to: "shared" });
  });
  let bomb = "labels:\n  - name: b\n    value:\n      l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i < 9; i++) {
    bomb += `      l${i}: &l${i} [${Array(10)
      .fill(`*l${i - 1}`)
      .join(", ")}]\n`;
  }
  expect(await refusal(bomb)).toBe(
    "acme.yml:4: Excessive alias count indicates a resource exhaustion attack",
  );
});
