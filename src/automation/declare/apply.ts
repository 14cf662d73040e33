/**
 * Applying a plan: each step by its family's operations, in the plan's order, and nothing the
 * plan does not say. A failure stops there: the result says what was applied, what failed and
 * what was not attempted, and a new plan (then apply) does the rest.
 */
import type { SeqeraClient } from "../../client/client.js";
import { lookup } from "../../client/lookup.js";
import { FAMILIES } from "../../model/families.js";
import type { Family } from "../../model/family.js";
import { waitForComputeEnv } from "../compute-env-wait.js";
import { uploadDataset } from "../datasets.js";
import { labelIds } from "../labels.js";
import { launchPipeline } from "../launch.js";
import { updatePipeline } from "../pipeline-versions.js";
import {
  clientFor,
  lookupOf,
  organizationScope,
  WORK,
  type Plan,
  type PlanStep,
  type StepWork,
} from "./plan.js";
import { getPath, setPath } from "./desired.js";
import { callOn } from "./read.js";
import { matchTeamMembers, applyMembership } from "./membership.js";

export interface ApplyOptions {
  /** Called before each step that changes something, and after it succeeded. */
  onStep?(step: PlanStep, state: "start" | "done"): void;
  signal?: AbortSignal;
}

export interface ApplyResult {
  applied: PlanStep[];
  /** The step that failed and why; undefined when every step was applied. */
  failed?: { step: PlanStep; error: unknown };
  notAttempted: PlanStep[];
}

/** Applies the plan's steps in order (planResources's plan: it holds what each step needs). */
export async function applyPlan(
  client: SeqeraClient,
  plan: Plan,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const result: ApplyResult = { applied: [], notAttempted: [] };
  const todo = plan.steps.filter((s) => s.action !== "unchanged");
  for (const [index, step] of todo.entries()) {
    const work = WORK.get(step);
    if (!work) throw new TypeError("applyPlan: the plan was not made by planResources");
    options.onStep?.(step, "start");
    try {
      const inWorkspace = clientFor(client, work.entry);
      await applyStep(inWorkspace, step, work, options.signal);
      await matchTeamMembers(inWorkspace, step, work, options.signal);
    } catch (error) {
      result.failed = { step, error };
      result.notAttempted = todo.slice(index + 1);
      return result;
    }
    result.applied.push(step);
    options.onStep?.(step, "done");
  }
  return result;
}

async function applyStep(
  client: SeqeraClient,
  step: PlanStep,
  work: StepWork,
  signal?: AbortSignal,
): Promise<void> {
  const family: Family = FAMILIES[work.entry.kind];
  const { operations } = family;
  // In an organization this apply created: its id is known now.
  if (work.entry.organization !== undefined && work.scope.orgId === undefined) {
    work.scope = await organizationScope(client, work.entry.organization, signal);
  }
  if (step.action === "delete" || step.action === "replace") {
    await callOn(client, operations.delete!, work.scope, work.id!, signal);
    if (step.action === "delete") return;
  }
  if (await applyMembership(client, step, work, signal)) return;
  const fields = structuredClone(work.desired.fields);
  // A reference to a resource this plan created is resolved now that it exists.
  for (const ref of work.desired.refs) {
    if (!String(getPath(fields, ref.field)).startsWith("(")) continue;
    const found = await lookup(client, lookupOf(ref.family), ref.name, signal);
    setPath(fields, ref.field, lookupOf(ref.family).id(found));
  }
  const shape = family.file;
  // Labels are named in the file and sent by id, those missing created first (as tw does).
  const labels = fields.labels as string[] | undefined;
  delete fields.labels;
  const { launch } = work.desired;
  if (launch) {
    await launchPipeline(client, launch.pipeline, { ...launch.settings, signal });
    return;
  }
  if (step.action === "update" && work.entry.kind === "pipelines") {
    // The helper sends back the saved launch, and the labels unless the file names them: an
    // update without them drops them.
    const { name, description } = fields as { name?: string; description?: string };
    await updatePipeline(client, Number(work.id), { name, description, labels, signal });
    return;
  }
  if (step.action === "update") {
    // A wrapped update takes the whole resource (`{ credentials }`), a flat one its own fields.
    const updatable = family.updatable ?? [];
    const body = shape.update
      ? { [shape.update]: fields }
      : Object.fromEntries(Object.entries(fields).filter(([k]) => updatable.includes(k)));
    await callOn(client, operations.update!, work.scope, work.id!, signal, body);
    return;
  }
  const { upload, wait } = work.desired;
  if (upload) {
    const description = fields.description as string | undefined;
    await uploadDataset(client, {
      name: work.entry.name,
      file: upload.file,
      hasHeader: upload.header,
      ...(description !== undefined && { description }),
      signal,
    });
    return;
  }
  const body = shape.create ? { [shape.create]: fields } : fields;
  // tw's `pipelines add` applies its labels after the create; the create request takes them.
  if (labels) body.labelIds = (await labelIds(client, labels, signal)).ids;
  await callOn(client, operations.create!, work.scope, undefined, signal, body, work.desired.query);
  if (wait === "AVAILABLE" && work.entry.kind === "compute-envs") {
    const created = await lookup(client, lookupOf("compute-envs"), work.entry.name, signal);
    await waitForComputeEnv(client, lookupOf("compute-envs").id(created), { signal });
  }
}
