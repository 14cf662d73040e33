/**
 * Type-level tests of what the service really sends (docs/releases.md, "Truthful types"), checked by
 * `tsc --noEmit` (npm test) and never executed. Each `@ts-expect-error` line must fail to
 * compile; it sits next to the line that compiles once the value is checked.
 */
import type { Readable } from "openapi-typescript-helpers";
import { expectTypeOf } from "vitest";
import type { components, SeqeraClient } from "../../src/index.js";

type Schemas = components["schemas"];

export async function truthfulTypes(client: SeqeraClient): Promise<void> {
  const { workflow, progress } = await client.GET("/workflow/{workflowId}", {
    params: { path: { workflowId: "w" } },
  });
  if (!workflow) return;

  // A run's stats, logFile (on the describe-run answer) and status may be null.
  expectTypeOf(workflow.stats).toEqualTypeOf<Readable<Schemas["WfStats"]> | null | undefined>();
  expectTypeOf(workflow.logFile).toEqualTypeOf<string | null | undefined>();
  expectTypeOf(workflow.status).toEqualTypeOf<Schemas["WorkflowStatus"] | null | undefined>();
  // @ts-expect-error stats may be null
  workflow.stats.computeTimeFmt;
  workflow.stats?.computeTimeFmt;

  // Properties the service sends that the published schema does not declare are readable.
  expectTypeOf(workflow.peakLoadCpus).toEqualTypeOf<number | null | undefined>();
  expectTypeOf(workflow.peakLoadMemory).toEqualTypeOf<number | null | undefined>();

  // Run parameters take any JSON value: strings, booleans, numbers, objects.
  expectTypeOf(workflow.params).toEqualTypeOf<Record<string, unknown> | null | undefined>();
  const outdir = workflow.params?.outdir;
  // @ts-expect-error a parameter is unknown until checked
  outdir.length;
  if (typeof outdir === "string") expectTypeOf(outdir.length).toBeNumber();

  // Required counters stay plain numbers; the ones older servers omit may be absent or null.
  const load = progress?.workflowProgress;
  if (load) {
    expectTypeOf(load.succeeded).toEqualTypeOf<number>();
    expectTypeOf(load.retries).toEqualTypeOf<number | null | undefined>();
  }

  // forgedResources items map a resource kind to its ARN or name.
  const { computeEnv } = await client.GET("/compute-envs/{computeEnvId}", {
    params: { path: { computeEnvId: "ce" } },
  });
  const config = computeEnv?.config;
  if (config?.discriminator === "aws-batch") {
    const [resource] = config.forgedResources ?? [];
    expectTypeOf(resource).toEqualTypeOf<Record<string, string> | undefined>();
    expectTypeOf(resource?.IamRole).toEqualTypeOf<string | undefined>();
  }
  // A compute environment's description may be null wherever it appears.
  expectTypeOf(computeEnv?.description).toEqualTypeOf<string | null | undefined>();

  // Enum-typed and $ref'd properties may be null too.
  const { dataLinks } = await client.GET("/data-links");
  expectTypeOf(dataLinks?.[0]?.status).toEqualTypeOf<
    Schemas["DataLink.Status"] | null | undefined
  >();
  expectTypeOf<Schemas["OrganizationDbDto"]["memberRole"]>().toEqualTypeOf<
    Schemas["OrgRole"] | null | undefined
  >();

  // Free-form objects are objects with any members, not `Record<string, never>`.
  expectTypeOf<Schemas["RunLog"]["outputs"]>().toEqualTypeOf<
    Record<string, unknown> | null | undefined
  >();

  // The user's options, undeclared by the published schema.
  const { user } = await client.GET("/user-info");
  expectTypeOf(user?.options?.maxRuns).toEqualTypeOf<number | null | undefined>();
}
