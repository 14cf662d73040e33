import type { CliContext } from "./context.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import { withSession, workspaceRef } from "./session.js";
import { OWN_COMMANDS, twCommandHint } from "./tw-commands.js";
import { ENUMS } from "../../generated/enums.js";
import type { WorkspaceRole } from "../schema/types.js";

/** The commands over teams, members, participants and data links, by their tw words. */
export type ResourceCommand = keyof typeof OWN_COMMANDS;

/** The release's workspace roles (`WspRole`); a release without that enum leaves them to the service. */
const ROLES = ENUMS.WspRole;

/** Each command's usage line. */
export const RESOURCE_USAGE: Record<ResourceCommand, string> = {
  teams: "seqera-api teams add <org>/<team> [user...]",
  members: "seqera-api members add <org> <user>...",
  participants: `seqera-api participants set-role <user|team> <${ROLES?.join("|") ?? "role"}> [--team] -w <org>/<workspace>`,
  "data-links": "seqera-api data-links browse <name> [folder]",
  "compute-envs": "seqera-api compute-envs wait <name> [--timeout 30m]",
  credentials:
    "seqera-api credentials set <name> --from-file <keys.json|-> [--provider p] [-d text]",
  secrets: "seqera-api secrets set <name> --from-file <file|->",
};

/**
 * `teams add`, `members add`, `participants set-role` and `data-links browse`: each does what a
 * job repeats, and is idempotent where it changes something (a member already in, a role
 * already held, is left as it is). Another sub-command of tw's words gets tw's hint.
 */
export async function resourceCommand(
  command: ResourceCommand,
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const [verb, ...rest] = args;
  const usage = RESOURCE_USAGE[command];
  if (verb !== OWN_COMMANDS[command])
    throw new UsageError(twCommandHint([command, ...args]) ?? `Usage: ${usage}`);
  const helpers = await import("../index.js");
  const needs = (min: number, max = Infinity) => {
    if (rest.length < min || rest.length > max) throw new UsageError(`Usage: ${usage}`);
  };
  const run = (body: Parameters<typeof withSession<unknown>>[3]) =>
    withSession(`${command} ${verb}`, values, context, async (session) => {
      await writeBody(context.stdout, await body(session));
      return EXIT.ok;
    });
  switch (command) {
    case "teams": {
      needs(1);
      const [ref = "", ...users] = rest;
      return run(async ({ client, scope: { signal } }) => {
        const team = await helpers.find.team(client, ref, { optional: true, signal });
        if (!team) {
          const { orgId } = await helpers.find.organization(client, ref.split("/")[0]!, { signal });
          await client.POST("/orgs/{orgId}/teams", {
            params: { path: { orgId } },
            body: { team: { name: ref.slice(ref.indexOf("/") + 1) } },
            signal,
          });
        }
        const added = await helpers.addMembers(client, ref, users, { signal });
        return { team: ref, created: !team, added };
      });
    }
    case "members": {
      needs(2);
      const [org = "", ...users] = rest;
      if (org.includes("/")) {
        throw new UsageError(
          `${org} is a team: add its members with seqera-api teams add ${org} <user>...`,
        );
      }
      return run(async ({ client, scope: { signal } }) => ({
        org,
        added: await helpers.addMembers(client, org, users, { signal }),
      }));
    }
    case "participants": {
      needs(2, 2);
      const [name = "", role = ""] = rest;
      if (ROLES && !ROLES.includes(role)) {
        throw new UsageError(`Role "${role}": one of ${ROLES.join(", ")}.`);
      }
      if (!workspaceRef(values, context)) {
        throw new UsageError(
          "participants set-role sets a role in a workspace: give -w <org>/<workspace> (or TOWER_WORKSPACE_ID).",
        );
      }
      const who = values.team ? { team: name } : { user: name };
      return run(async ({ client, scope: { signal } }) => ({
        ...who,
        role,
        done: await helpers.setWorkspaceRole(client, who, role as WorkspaceRole, {
          signal,
        }),
      }));
    }
    case "data-links": {
      needs(1, 2);
      const [name = "", folder = ""] = rest;
      return run(({ client, scope: { signal } }) =>
        helpers.find.dataLink(client, name, { under: folder, signal }),
      );
    }
    case "compute-envs":
      needs(1, 1);
      return (await import("./compute-env-command.js")).computeEnvWait(rest[0]!, values, context);
    case "credentials":
    case "secrets": {
      needs(1, 1);
      const { setCommand } = await import("./secret-commands.js");
      return setCommand(command, rest[0]!, values, context, `Usage: ${usage}`);
    }
  }
}
