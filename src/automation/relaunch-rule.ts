/**
 * What a resumed relaunch keeps: the run's work directory (where its cached tasks are) and its
 * pipeline. One check for the library, the CLI and the Action, each told in its own terms
 * (errors/settings.ts); kept apart from launch.ts so that a front end checks it before loading
 * the helpers.
 */
import { ConfigurationError } from "../errors/configuration-error.js";
import { SETTINGS, toldAs } from "../errors/settings.js";

const KEPT = {
  workDir: "its work directory, where its cached tasks are",
  pipeline: "its pipeline",
} as const;

/**
 * A ConfigurationError (its `option` "workDir" or "pipeline") when a resumed relaunch (`resume`
 * true or "if-available", the default) is given another work directory or pipeline; before any
 * call.
 */
export function checkResumeKeeps(options: {
  resume?: boolean | "if-available";
  workDir?: string;
  pipeline?: string;
}): void {
  if ((options.resume ?? true) === false) return;
  for (const option of ["workDir", "pipeline"] as const) {
    if (options[option] === undefined) continue;
    const error = new ConfigurationError("", { option });
    throw toldAs(
      error,
      (front) =>
        `${SETTINGS[option][front]} needs ${SETTINGS.noResume[front]}: a resumed run keeps ${KEPT[option]}.`,
    );
  }
}
