/**
 * `seqera-api plan|apply <file|->...` and `seqera-api export`: workspaces as code, in
 * seqerakit's format, over planResources, applyPlan and exportResources. The plan goes to
 * stdout (text on a terminal or with no --json, JSON lines with --json); apply's progress and
 * a failure's report go to stderr.
 */
import type { CliContext } from "./context.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { readUtf8File } from "../core/text-file.js";
import { write, writeLine, writeText } from "./output.js";
import { withSession, workspaceRef } from "./session.js";
import type { Plan, PlanStep } from "../automation/declare/plan.js";
import { REDACTED } from "../automation/declare/read.js";

/** plan and apply: the files (or "-", standard input) planned, then applied for apply. */
export async function declareCommand(
  command: "plan" | "apply",
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  if (args.length === 0) {
    throw new UsageError(
      `Usage: seqera-api ${command} <file.yml|->... [--targets kinds] [--delete] [--json]`,
    );
  }
  const { planResources, applyPlan } = await import("../index.js");
  const { entriesToPlan } = await import("../automation/declare/plan.js");
  const documents: { text: string; file: string }[] = [];
  for (const file of args) {
    const text = file === "-" ? await context.stdin() : await readUtf8File(file, file);
    documents.push({ text, file });
  }
  const options = {
    env: context.env,
    ...(values.targets && { targets: values.targets }),
    ...(values.delete && { delete: true }),
  };
  // Bad files are refused before the session's first request (the workspace's lookup).
  await entriesToPlan(documents, options);
  return withSession(command, values, context, async ({ client, scope }) => {
    const { signal } = scope;
    const plan = await planResources(client, documents, { ...options, signal });
    // The session's client has the workspace by id; the steps in it show the name the user gave.
    const named = workspaceRef(values, context);
    const id = await client.resolveWorkspaceId({ signal });
    for (const step of plan.steps) if (named && step.workspace === id) step.workspace = named;
    if (command === "plan") {
      await printPlan(plan, values, context);
      return values["detailed-exitcode"] && plan.pending > 0 ? EXIT.pending : EXIT.ok;
    }
    if (!values.json) await printPlan(plan, values, context);
    const result = await applyPlan(client, plan, {
      signal,
      onStep: (step, state) =>
        context.stderr.write(`${state === "start" ? "applying" : "done"}: ${headline(step)}\n`),
    });
    if (values.json) {
      const outcome = (step: PlanStep) =>
        result.applied.includes(step)
          ? "applied"
          : result.failed?.step === step
            ? "failed"
            : result.notAttempted.includes(step)
              ? "not attempted"
              : "unchanged";
      for (const step of plan.steps)
        await writeLine(context.stdout, { ...step, outcome: outcome(step) });
    }
    if (!result.failed) {
      if (!values.json && plan.pending > 0)
        await write(context.stdout, `Applied ${result.applied.length} changes.\n`);
      return EXIT.ok;
    }
    const { errorLine, exitCodeFor } = await import("./report-error.js");
    const list = (steps: PlanStep[]) =>
      steps.map((s) => `${s.kind} "${s.name}"`).join(", ") || "none";
    context.stderr.write(
      [
        `seqera-api apply: failed at ${headline(result.failed.step)}: ${errorLine(result.failed.error, { command: "apply" }).replace(/^seqera-api( apply)?: /, "")}`,
        `  applied: ${list(result.applied)}`,
        `  not attempted: ${list(result.notAttempted)}`,
        "  Run apply again to complete the rest: what was applied is then unchanged.",
        "",
      ].join("\n"),
    );
    return exitCodeFor(result.failed.error);
  });
}

/** `seqera-api export [--kinds k,...]`: the workspace's resources as YAML on stdout. */
export async function exportCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  if (args.length > 0)
    throw new UsageError(
      `Unexpected argument "${args[0]}": seqera-api export --workspace org/ws [--kinds kinds]`,
    );
  const { exportResources } = await import("../index.js");
  return withSession("export", values, context, async ({ client, scope }) => {
    const yaml = await exportResources(client, {
      signal: scope.signal,
      ...(values.kinds && { kinds: values.kinds }),
    });
    await writeText(context.stdout, yaml);
    return EXIT.ok;
  });
}

const SIGNS: Record<PlanStep["action"], string> = {
  create: "+",
  update: "~",
  replace: "-/+",
  delete: "-",
  unchanged: "=",
  launch: ">",
};

function headline(step: PlanStep): string {
  const where = step.workspace === null ? "" : ` in ${step.workspace}`;
  return `${step.action} ${step.kind} "${step.name}"${where}`;
}

/** The plan as JSON lines (--json), else as text: what changes, field by field, then counts. */
async function printPlan(plan: Plan, values: OptionValues, context: CliContext): Promise<void> {
  if (values.json) {
    for (const step of plan.steps) await writeLine(context.stdout, step);
    return;
  }
  const shown = (value: unknown) =>
    value === undefined ? "(none)" : value === REDACTED ? value : JSON.stringify(value);
  const lines: string[] = [];
  for (const step of plan.steps) {
    if (step.action === "unchanged") continue;
    lines.push(`${SIGNS[step.action]} ${headline(step)}${step.reason ? `: ${step.reason}` : ""}`);
    for (const change of step.changes) {
      const from = step.action === "create" ? "" : `${shown(change.from)} → `;
      lines.push(`    ${change.field}: ${from}${shown(change.to)}`);
    }
  }
  const count = (action: PlanStep["action"]) =>
    plan.steps.filter((s) => s.action === action).length;
  lines.push(
    plan.pending === 0
      ? `Nothing to do: ${plan.steps.length} resources are as the files say.`
      : `Plan: ${count("create")} to create, ${count("update")} to update, ${count("replace")} to replace, ${count("delete")} to delete${count("launch") ? `, ${count("launch")} to launch` : ""}; ${count("unchanged")} unchanged.`,
  );
  await writeText(context.stdout, `${lines.join("\n")}\n`);
}
