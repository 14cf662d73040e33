/**
 * `seqera-api secrets set` and `credentials set`: create or update, the value (or keys) read
 * from a file or standard input, never from the command line, where process listings and shell
 * history would show it. The value is never printed, nor said in an error line.
 */
import type { CliContext } from "./context.js";
import type { OptionValues } from "./command-line.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { UsageError } from "../errors/cli-errors.js";
import { readFileOption, parseJsonText } from "./input-text.js";
import { hideInReports, writeBody } from "./output.js";
import { withSession } from "./session.js";

/** What `set` reads and where it is to go. */
interface SetInput {
  name: string;
  /** --from-file's label for errors ("--from-file (stdin)"). */
  label: string;
  value: string;
  values: OptionValues;
  context: CliContext;
}

/**
 * `secrets set` or `credentials set`: the text of --from-file (`-` standard input), without
 * one final line end (`echo "$X" |` and an editor's saved file end with one the value does not
 * hold), hidden from every line on stderr from now on.
 */
export async function setCommand(
  command: "secrets" | "credentials",
  name: string,
  values: OptionValues,
  context: CliContext,
  usage: string,
): Promise<ExitCode> {
  const file = values["from-file"];
  if (file === undefined) throw new UsageError(`${usage} (the value is never an argument)`);
  const { label, text } = await readFileOption("--from-file", file, context);
  const value = text.replace(/\r?\n$/, "");
  hideInReports(value);
  const input = { name, label, value, values, context };
  return command === "secrets" ? setSecret(input) : setCredentials(input);
}

/** Creates the workspace's pipeline secret of that name, or sets its value; prints no value. */
async function setSecret({ name, label, value, values, context }: SetInput): Promise<ExitCode> {
  if (value === "") throw new UsageError(`${label} is empty: a secret needs a value.`);
  const { find } = await import("../index.js");
  return withSession(`secrets set ${name}`, values, context, async ({ client, scope }) => {
    const { signal } = scope;
    const found = await find.secret(client, name, { optional: true, signal });
    let secretId = found?.id;
    if (secretId === undefined) {
      const answer = await scope.shielded((signal) =>
        client.POST("/pipeline-secrets", { body: { name, value }, signal }),
      );
      secretId = answer.secretId ?? undefined;
    } else {
      const params = { path: { secretId } };
      await client.PUT("/pipeline-secrets/{secretId}", { params, body: { value }, signal });
    }
    await writeBody(context.stdout, { secretId, name, created: found === undefined });
    return EXIT.ok;
  });
}

/**
 * Replaces the keys of the workspace's credentials of that name (their provider kept), or
 * creates them with --provider; the keys are a JSON object (`{"accessKey", "secretKey"}`).
 * Prints `{"credentialsId", "created", "computeEnvs"}`: the compute environments using them.
 */
async function setCredentials({
  name,
  label,
  value,
  values,
  context,
}: SetInput): Promise<ExitCode> {
  const keys = await parseJsonText(label, value);
  if (typeof keys !== "object" || keys === null || Array.isArray(keys)) {
    throw new UsageError(`${label} must hold a JSON object of keys, e.g. {"accessKey": ...}.`);
  }
  for (const key of Object.values(keys)) if (typeof key === "string") hideInReports(key);
  const { updateCredentials } = await import("../index.js");
  const description = values.description;
  return withSession(`credentials set ${name}`, values, context, async ({ client, scope }) => {
    const { signal } = scope;
    const options = { optional: true as const, signal, description };
    const updated = await updateCredentials(client, name, keys as never, options);
    if (updated) {
      await writeBody(context.stdout, { ...updated, created: false });
      return EXIT.ok;
    }
    const provider = values.provider;
    if (provider === undefined) {
      throw new UsageError(
        `The workspace has no credentials named "${name}": give --provider (aws, google, azure...) to create them.`,
      );
    }
    const credentials = { name, provider, description, keys: { discriminator: provider, ...keys } };
    const answer = await scope.shielded((signal) =>
      client.POST("/credentials", { body: { credentials } as never, signal }),
    );
    await writeBody(context.stdout, {
      credentialsId: answer.credentialsId,
      created: true,
      computeEnvs: [],
    });
    return EXIT.ok;
  });
}
