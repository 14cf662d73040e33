/** The CLI's command words: the one table the parser, the help and the handlers are typed by. */

/**
 * The command words, each once, and whether it talks to the API (and so takes --url,
 * --workspace, --verbose). A word's usage (help.ts's USAGE) and its handler (run.ts's
 * HANDLERS) are typed by this table: one missing there fails the type-check.
 */
export const COMMANDS = {
  emulator: { api: false },
  operations: { api: false },
  launch: { api: true },
  relaunch: { api: true },
  wait: { api: true },
  logs: { api: true },
  cancel: { api: true },
  datasets: { api: true },
  pipelines: { api: true },
  report: { api: true },
  runs: { api: true },
  watch: { api: true },
  "failed-tasks": { api: true },
  "copy-pipeline": { api: true },
  teams: { api: true },
  members: { api: true },
  participants: { api: true },
  "data-links": { api: true },
  "compute-envs": { api: true },
  credentials: { api: true },
  secrets: { api: true },
  plan: { api: true },
  apply: { api: true },
  export: { api: true },
} as const satisfies Record<string, { api: boolean }>;

/** What the first positional argument selects. "call" is an API operation (by id or path). */
export type CommandName = "call" | keyof typeof COMMANDS;

/** The words that name a command; any other first word is an operation ("call"). */
export const COMMAND_WORDS: ReadonlySet<string> = new Set(Object.keys(COMMANDS));
