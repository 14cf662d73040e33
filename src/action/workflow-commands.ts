/**
 * The runner's side of a GitHub Action step: workflow commands on stdout (`::add-mask::`,
 * `::error::`, `::group::`, `::stop-commands::`), outputs in the GITHUB_OUTPUT file, the job
 * summary in the GITHUB_STEP_SUMMARY file. These are the runner's documented formats; written
 * here rather than with @actions/core, whose bundle (its HTTP client and undici, for OIDC
 * tokens) is 800 kB for these few lines.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync } from "node:fs";

export type Env = Readonly<Record<string, string | undefined>>;

/** Where the step writes: its log (stdout) and the runner's files, named by its environment. */
export interface StepIo {
  log(line: string): void;
  env: Env;
}

/** A command's message: the runner reads up to the end of the line and decodes these three. */
function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A command's property value, which ends at `,` and whose name ends at `:` too. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function command(name: string, properties: Record<string, string | undefined>, message: string) {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== "")
    .map(([key, value]) => `${key}=${escapeProperty(value!)}`)
    .join(",");
  return `::${name}${props ? ` ${props}` : ""}::${escapeData(message)}`;
}

/** From now on the runner shows `secret` as *** wherever this step's log has it. */
export function mask(io: StepIo, secret: string): void {
  if (secret) io.log(command("add-mask", {}, secret));
}

/** An annotation on the run's page (and the step's log line), with a title. */
export function annotate(
  io: StepIo,
  level: "error" | "warning" | "notice",
  title: string,
  message: string,
): void {
  io.log(command(level, { title }, message));
}

/** Lines between these are one folded group in the job's log. */
export function group(io: StepIo, title: string): () => void {
  io.log(command("group", {}, title));
  return () => io.log("::endgroup::");
}

/**
 * Text the service sent (a run's console log) printed as it is: the runner would act on a line
 * of it that looks like a workflow command (set an output, add a mask, stop the masks), so
 * commands are off until the returned function turns them back on.
 */
export function verbatim(io: StepIo): () => void {
  const token = randomUUID();
  io.log(`::stop-commands::${token}`);
  return () => io.log(`::${token}::`);
}

/**
 * Sets step outputs (`steps.<id>.outputs.<name>`): each as a heredoc with a delimiter the value
 * cannot hold, so any text (newlines included) is one output. Without GITHUB_OUTPUT (not on a
 * runner) there is nowhere to set them.
 */
export function setOutputs(io: StepIo, outputs: Record<string, string | undefined>): void {
  const file = io.env.GITHUB_OUTPUT;
  if (!file) return;
  let text = "";
  for (const [name, value] of Object.entries(outputs)) {
    if (value === undefined) continue;
    const delimiter = `ghadelimiter_${randomUUID()}`;
    text += `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
  }
  appendFileSync(file, text);
}

/** Adds Markdown to the job's summary page (GITHUB_STEP_SUMMARY); nothing off a runner. */
export function addSummary(io: StepIo, markdown: string): void {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, markdown.endsWith("\n") ? markdown : `${markdown}\n`);
}
