import type { OperationInfo } from "../../generated/operations.js";

/**
 * The words users say for what the schema names otherwise: a studio is a DataStudio (whose word
 * "studio" already matches), to browse a data link is to explore it, to add is to create, a run
 * is a workflow. Each user word stands for any of its alternatives.
 */
const ALTERNATIVES: Readonly<Record<string, readonly string[]>> = {
  add: ["add", "create"],
  new: ["create"],
  make: ["create"],
  get: ["describe", "get"],
  view: ["describe"],
  show: ["describe"],
  info: ["describe", "info"],
  remove: ["delete", "remove"],
  rm: ["delete"],
  del: ["delete"],
  ls: ["list"],
  browse: ["explore"],
  explore: ["explore"],
  edit: ["update"],
  set: ["update"],
  change: ["update"],
  rename: ["update"],
  kill: ["cancel"],
  abort: ["cancel"],
  run: ["workflow", "launch"],
  pipeline: ["pipeline"],
  org: ["organization"],
  orgs: ["organization"],
  ws: ["workspace"],
  ce: ["compute"],
  env: ["env", "compute"],
  user: ["user", "member"],
  role: ["role"],
  bucket: ["data", "link"],
  file: ["dataset", "download"],
  log: ["log"],
  logs: ["log"],
  token: ["token"],
  key: ["key"],
};

/** A name's words, lowercase and singular: "ListDataStudios" → list, data, studio. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z\d]+/)
    .filter(Boolean)
    .map((word) => singular(word.toLowerCase()));
}

function singular(word: string): string {
  return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/** Whether every user word is one of `words` (through its alternatives). */
export function saysAll(userWords: readonly string[], words: ReadonlySet<string>): boolean {
  return userWords.every((word) =>
    (Object.hasOwn(ALTERNATIVES, word) ? ALTERNATIVES[word]! : [word]).some((alternative) =>
      words.has(alternative),
    ),
  );
}

/**
 * The operations whose names say every word of `name` (StopStudio → StopDataStudio,
 * AddTeamMember → CreateOrganizationTeamMember), fewest other words first; at most three.
 */
export function operationsSaying(name: string, operations: readonly OperationInfo[]): string[] {
  const wanted = wordsOf(name);
  if (wanted.length === 0) return [];
  return operations
    .map((info) => ({ id: info.operationId, words: wordsOf(info.operationId) }))
    .filter(({ words }) => saysAll(wanted, new Set(words)))
    .sort((a, b) => a.words.length - b.words.length || a.id.localeCompare(b.id))
    .slice(0, 3)
    .map(({ id }) => id);
}
