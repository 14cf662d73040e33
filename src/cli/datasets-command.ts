import { access } from "node:fs/promises";
import type { CliContext } from "./context.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { writeBody } from "./output.js";
import { withSession } from "./session.js";

/**
 * `seqera-api datasets add <name> <file>`: creates the dataset (or adds a version to the one of
 * that name) from a CSV or TSV file; prints `{"datasetId", "version", "url"}`, the url being
 * what a pipeline's input param takes.
 */
export async function datasetsCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const [verb, name, file, ...extra] = args;
  if (verb !== "add" || name === undefined || file === undefined || extra.length > 0) {
    throw new UsageError(
      "Usage: seqera-api datasets add <name> <file.csv|file.tsv> [--header] [-d description]",
    );
  }
  await access(file).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`${file}: cannot read the file (${error.code ?? error.message}).`);
  });
  const { uploadDataset } = await import("../index.js");
  return withSession(`datasets add ${name}`, values, context, async ({ client, scope }) => {
    const uploaded = await uploadDataset(client, {
      name,
      file,
      hasHeader: values.header === true,
      description: values.description,
      signal: scope.signal,
    });
    await writeBody(context.stdout, uploaded);
    return EXIT.ok;
  });
}
