import { paginateUntyped } from "../client/paginate.js";
import type { SeqeraClient } from "../index.js";
import type { CliContext } from "./context.js";
import { planCall, type CallPlan } from "./call-plan.js";
import { withCommandScope } from "./command-scope.js";
import { parseDuration } from "./duration.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { findTarget } from "./operation-target.js";
import { readerGone, write, writeBody, writeLine } from "./output.js";
import { progressOn } from "./progress.js";
import { commandWorkspace, openClient, workspaceRef } from "./session.js";
import type { FieldArg } from "./body-fields.js";

/** `seqera-api <operation|METHOD path> [options]`: one API call, or every page of a list. */
export async function callCommand(
  args: string[],
  values: OptionValues,
  fields: FieldArg[],
  context: CliContext,
): Promise<ExitCode> {
  const target = findTarget(args);
  if (values.help) {
    const { operationHelp } = await import("./operation-help.js");
    await write(context.stdout, operationHelp(target.info));
    return EXIT.ok;
  }
  const hasWorkspace = workspaceRef(values, context) !== undefined;
  const plan = await planCall(target, { ...values, fields, hasWorkspace }, context);
  const timeoutMs =
    values.timeout === undefined ? undefined : parseDuration("--timeout", values.timeout);
  // The client is loaded only now: usage errors and --help never pay for it.
  const opened = await openClient(values, context);
  try {
    await withCommandScope(plan.info.operationId, timeoutMs, context, async ({ signal }) => {
      plan.init.signal = signal;
      // The workspace's ids are needed here only to fill a path; else the client resolves a
      // name when it sends the query's workspaceId, and the cache spares that lookup too.
      const needs = plan.fromWorkspace.length > 0 || Object.hasOwn(plan.info.query, "workspaceId");
      const { client, ids, drop } = needs
        ? await commandWorkspace(
            opened,
            values,
            context,
            signal,
            plan.fromWorkspace.includes("orgId"),
          )
        : { client: opened, ids: undefined, drop: async () => {} };
      const path = plan.init.params!.path as Record<string, string>;
      for (const key of plan.fromWorkspace)
        path[key] = ids?.[key] ?? workspaceRef(values, context)!;
      try {
        if (plan.paginate) return await writeEveryItem(client, plan, context);
        const { method, path: template } = plan.info;
        await writeBody(context.stdout, await client.request(method, template, plan.init));
      } catch (error) {
        await drop(error);
        throw error;
      }
    });
  } finally {
    await opened.close();
  }
  return EXIT.ok;
}

/** Every page of a list known only at run time (the plan has checked it is one). */
async function writeEveryItem(client: SeqeraClient, plan: CallPlan, context: CliContext) {
  const progress = progressOn(context.stderr);
  let items = 0;
  let pages = 0;
  try {
    const init = { ...plan.init, ...plan.paginate };
    for await (const page of paginateUntyped(client, plan.info.path, init).pages()) {
      pages++;
      for (const item of page.items) await writeLine(context.stdout, item);
      if (readerGone(context.stdout)) return;
      items += page.items.length;
      const of = page.total === undefined ? "" : ` of ${page.total}`;
      progress.update(`${plan.info.operationId}: ${items}${of} items, ${pages} pages`);
    }
  } finally {
    progress.done();
  }
}
