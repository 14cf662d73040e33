import { operations } from "../../generated/operations.js";
import { loadDocument } from "../openapi/operations-document.js";
import { UsageError } from "../errors/cli-errors.js";
import { EXIT, type ExitCode } from "./exit-codes.js";
import { saysAll, wordsOf } from "./operation-words.js";
import { write, type Streams } from "./output.js";

/**
 * `seqera-api operations [word...]`: the operations of the API, one a line (operationId,
 * method and path, summary), or those about every word given: a word of the operation's name,
 * tag or path, or one users say for it (studio, team, browse, add...).
 */
export async function operationsCommand(args: string[], streams: Streams): Promise<ExitCode> {
  const doc = loadDocument();
  const wanted = args.flatMap((arg) => wordsOf(arg));
  const rows = Object.values(operations)
    .map((info) => {
      const op = doc.paths[info.path]?.[info.method.toLowerCase()] as
        { summary?: unknown; tags?: unknown } | undefined;
      const tags = Array.isArray(op?.tags) ? op.tags.map(String) : [];
      const words = new Set(
        [
          info.operationId,
          ...tags,
          ...info.path.split("/").filter((s) => !s.startsWith("{")),
        ].flatMap((text) => wordsOf(text)),
      );
      const summary = typeof op?.summary === "string" ? op.summary : "";
      return { info, words, summary };
    })
    .filter(({ words }) => saysAll(wanted, words))
    .sort((a, b) => a.info.operationId.localeCompare(b.info.operationId));
  if (rows.length === 0) {
    throw new UsageError(
      `No operation is about "${args.join(" ")}": try fewer words, or seqera-api operations alone for all of them.`,
    );
  }
  const width = Math.max(...rows.map((r) => r.info.operationId.length));
  const routeWidth = Math.max(...rows.map((r) => r.info.method.length + r.info.path.length + 1));
  const lines = rows.map(({ info, summary }) =>
    `${info.operationId.padEnd(width)}  ${`${info.method} ${info.path}`.padEnd(routeWidth)}  ${summary}`.trimEnd(),
  );
  await write(streams.stdout, `${lines.join("\n")}\n`);
  return EXIT.ok;
}
