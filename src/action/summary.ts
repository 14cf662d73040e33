/** The job summary of one run: its status, duration, and what its failed tasks said last. */
import type { Run, Task } from "../index.js";

/** Failed tasks whose last lines of standard error are shown; the rest are listed. */
const STDERR_SHOWN = 10;

/** A failed task, with the last lines of its standard error when they were read. */
export type TaskTail = Task & { stderr?: string[] };

export interface RunReport {
  workflowId: string;
  url: string | undefined;
  status: string | undefined;
  /** The run as last described, when the step waited. */
  run?: Run;
  /** The run's failed tasks, with the last lines of their standard error when read. */
  tasks?: TaskTail[];
  /** Why the step stopped before the run did. */
  note?: string;
  /** Since the step started: the duration when the service gave none. */
  elapsedMs: number;
}

const ICONS: Readonly<Record<string, string>> = {
  SUCCEEDED: "✅",
  FAILED: "❌",
  CANCELLED: "⏹️",
  UNKNOWN: "❔",
};

/** Markdown for GITHUB_STEP_SUMMARY. Text from the run (names, stderr) is shown, never rendered. */
export function runSummary(report: RunReport): string {
  const { run, status = "SUBMITTED" } = report;
  const name = run?.runName ? `${html(run.runName)} (${report.workflowId})` : report.workflowId;
  const lines = [`### ${ICONS[status] ?? "🚀"} Seqera run ${name}: ${status}`, ""];
  const rows: [string, string][] = [["Status", status]];
  if (run?.projectName) rows.push(["Pipeline", html(run.projectName)]);
  if (run?.exitStatus != null) rows.push(["Exit status", String(run.exitStatus)]);
  const durationMs = run?.duration ?? undefined;
  if (durationMs != null) rows.push(["Duration", formatDuration(durationMs)]);
  else rows.push(["Time in this step", formatDuration(report.elapsedMs)]);
  if (report.url) rows.push(["Run", `[${report.workflowId}](${report.url})`]);
  lines.push("| | |", "| --- | --- |", ...rows.map(([k, v]) => `| ${k} | ${cell(v)} |`), "");
  if (run?.errorMessage) lines.push(block(run.errorMessage), "");
  if (report.note) lines.push(html(report.note), "");
  const tasks = report.tasks ?? [];
  if (tasks.length > 0) {
    lines.push(`#### Failed tasks (${tasks.length})`, "");
    lines.push("| Task | Exit code |", "| --- | --- |");
    for (const task of tasks) {
      lines.push(`| ${cell(html(task.name ?? String(task.taskId ?? "?")))} | ${exitOf(task)} |`);
    }
    lines.push("");
    for (const { name, stderr = [] } of tasks.slice(0, STDERR_SHOWN)) {
      if (stderr.length === 0) continue;
      lines.push(
        `<details><summary>${html(name ?? "?")}: last lines of standard error</summary>`,
        "",
        block(stderr.join("\n")),
        "",
        "</details>",
        "",
      );
    }
  }
  return lines.join("\n");
}

/** Markdown for GITHUB_STEP_SUMMARY when no run was launched: why, as the annotation says. */
export function notLaunchedSummary(note: string): string {
  return [`### ❌ Seqera run: nothing launched`, "", html(note), ""].join("\n");
}

function exitOf(task: Task): string {
  const code = task.exitStatus ?? task.exit;
  return code == null ? "" : String(code);
}

/** "2h 10m 30s", "45s". */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const parts = [
    [Math.floor(total / 3600), "h"],
    [Math.floor((total % 3600) / 60), "m"],
    [total % 60, "s"],
  ] as const;
  const shown = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n}${unit}`);
  return shown.length ? shown.join(" ") : "0s";
}

/**
 * Text that Markdown would otherwise turn into HTML, links, code or emphasis (`_` only
 * emphasizes at word edges: names such as STAR_ALIGN stay as they are).
 */
function html(text: string): string {
  return text.replace(/[&<>[\]*`\\]|\b_|_\b/g, (c) => `&#${c.charCodeAt(0)};`);
}

function cell(text: string): string {
  return text.replace(/\|/g, "&#124;").replace(/\r?\n/g, " ");
}

/** A fenced block its content cannot close: a fence longer than any run of backticks in it. */
function block(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}
