/**
 * The one table of what a message may tell a user to change, in the words of the interface they
 * used: the library's options, the CLI's flags and variables, the Action's inputs. An error that
 * names a setting is told per front end from it (`tell`), so no front end rewrites another's prose.
 */

/** The interfaces an error is told in. */
export type Front = "library" | "cli" | "action";

export const SETTINGS = {
  token: {
    library: "the token option or TOWER_ACCESS_TOKEN",
    cli: "TOWER_ACCESS_TOKEN",
    action: "the access_token input",
  },
  baseUrl: {
    library: "the baseUrl option or TOWER_API_ENDPOINT",
    cli: "--url or TOWER_API_ENDPOINT",
    action: "the api_endpoint input",
  },
  /** The baseUrl option alone, where a URL given that way is at fault. */
  urlOption: {
    library: "baseUrl",
    cli: "--url",
    action: "the api_endpoint input",
  },
  insecureHttp: {
    library: "allowInsecureHttp: true",
    cli: "SEQERA_ALLOW_INSECURE_HTTP=1",
    action: "SEQERA_ALLOW_INSECURE_HTTP=1 in the step's env",
  },
  computeEnv: {
    library: "`computeEnv`",
    cli: "--compute-env (-c)",
    action: "the compute_env input",
  },
  workDir: {
    library: "`workDir`",
    cli: "--work-dir",
    action: "the workdir input",
  },
  /** A relaunch's other pipeline. */
  pipeline: {
    library: "`pipeline`",
    cli: "--pipeline",
    action: "the pipeline input",
  },
  noResume: {
    library: "`resume: false`",
    cli: "--no-resume",
    action: "the resume input set to false",
  },
} as const satisfies Record<string, Record<Front, string>>;

export type Setting = keyof typeof SETTINGS;

/** A message told per front end. */
export type Told = (front: Front) => string;

/**
 * Kept on the error itself, not in a module's map: the CLI and the Action are bundled apart from
 * the main entry that throws most errors, so a module-level map would not be theirs.
 */
const TOLD = Symbol.for("seqera-api-client.told");

/** Sets the error's message as `render` tells it to library users, and keeps `render` for the others. */
export function toldAs<E extends Error>(error: E, render: Told): E {
  Object.defineProperty(error, TOLD, { value: render, configurable: true });
  error.message = render("library");
  return error;
}

/** Tells the error as before, amended by `amend` in each front end's terms. */
export function amendTold<E extends Error>(
  error: E,
  amend: (told: string, front: Front) => string,
): E {
  const before = (error as Error & { [TOLD]?: Told })[TOLD];
  const message = error.message;
  return toldAs(error, (front) => amend(before?.(front) ?? message, front));
}

/** The error's message in the front end's terms, when it names a setting; else undefined. */
export function toldFor(error: unknown, front: Front): string | undefined {
  return error instanceof Error ? (error as Error & { [TOLD]?: Told })[TOLD]?.(front) : undefined;
}

/** The error's message in the front end's terms (its message, when it names no setting). */
export function tell(error: unknown, front: Front): string {
  return toldFor(error, front) ?? (error instanceof Error ? error.message : String(error));
}
