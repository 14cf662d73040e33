import type { CliContext } from "./context.js";
import { UsageError } from "../errors/cli-errors.js";
import type { OptionValues } from "./options.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { launchSettings } from "./launch-options.js";
import { writeBody, writeLine } from "./output.js";
import { withSession } from "./session.js";

const USAGE =
  "Usage: seqera-api pipelines versions list|add|default <pipeline> [options], or seqera-api pipelines update <pipeline> [options]";

/**
 * `seqera-api pipelines versions list|add|default <pipeline>` and `seqera-api pipelines update
 * <pipeline>`: a Launchpad pipeline's versions (the library's pipelineVersions), and its
 * changes keeping its labels (updatePipeline). See the command's help for what each prints.
 */
export async function pipelinesCommand(
  args: string[],
  values: OptionValues,
  context: CliContext,
): Promise<ExitCode> {
  const [word, ...rest] = args;
  const [verb, pipeline, ...extra] = word === "versions" ? rest : [word, ...rest];
  if (pipeline === undefined || extra.length > 0) throw new UsageError(USAGE);
  const known = word === "versions" ? ["list", "add", "default"] : ["update"];
  if (verb === undefined || !known.includes(verb)) throw new UsageError(USAGE);
  const { pipelineVersions, updatePipeline } = await import("../index.js");
  const what = `pipelines ${word === "versions" ? "versions " : ""}${verb} ${pipeline}`;
  return withSession(what, values, context, async ({ client, scope }) => {
    const { signal } = scope;
    const settings = await launchSettings(values, context, signal);
    const published = values.published ? true : values.drafts ? false : undefined;
    switch (verb) {
      case "list":
        for (const version of await pipelineVersions.list(client, pipeline, { published, signal }))
          await writeLine(context.stdout, version);
        return EXIT.ok;
      case "add": {
        const revision = settings.revision;
        if (revision === undefined)
          throw new UsageError("pipelines versions add needs --revision <ref>.");
        const version = await pipelineVersions.create(client, pipeline, {
          revision,
          name: values["version-name"],
          makeDefault: values.default === true,
          params: settings.params,
          signal,
        });
        await writeBody(context.stdout, version);
        return EXIT.ok;
      }
      case "default": {
        const versionName = values["version-name"];
        const versionId = values["version-id"];
        if ((versionName === undefined) === (versionId === undefined)) {
          throw new UsageError(
            "pipelines versions default needs --version-name or --version-id (one).",
          );
        }
        const ids = await pipelineVersions.makeDefault(client, pipeline, {
          versionName,
          versionId,
          signal,
        });
        await writeBody(context.stdout, { ...ids, isDefault: true });
        return EXIT.ok;
      }
      default: {
        const updated = await updatePipeline(client, pipeline, {
          description: values.description,
          revision: settings.revision,
          params: settings.params,
          labels: settings.labels,
          signal,
        });
        await writeBody(context.stdout, updated);
        return EXIT.ok;
      }
    }
  });
}
