/** The job summary of one run: its status, duration, and what its failed tasks said last. */
import type { Run, SeqeraClient, Task } from "../index.js";

/** Failed tasks whose standard error is read for the summary; the rest are counted. */
const TASKS_READ = 10;
/** Lines of each failed task's standard error shown. */
const STDERR_LINES = 10;

export interface TaskTail {
  task: Task;
  /** The last lines of its `.command.err` (empty when it wrote none or could not be read). */
  stderr: string[];
}

export interface RunReport {
  workflowId: string;
  url: string | undefined;
  status: string | undefined;
  /** The run as last described, when the step waited. */
  run?: Run;
  /** The run's failed tasks, those read first. */
  tasks?: TaskTail[];
  /** Why the step stopped before the run did. */
  note?: string;
  /** Since the step started: the duration when the service gave none. */
  elapsedMs: number;
}

/**
 * The last lines of standard error of the first failed tasks (`.command.err`, one download per
 * task); a task whose file cannot be read is listed without them.
 */
export async function failedTaskTails(
  client: SeqeraClient,
  workflowId: string,
  tasks: readonly Task[],
): Promise<TaskTail[]> {
  const { downloadRunLog } = await import("../index.js");
  const tails: TaskTail[] = [];
  for (const task of tasks.slice(0, TASKS_READ)) {
    let stderr: string[] = [];
    if (task.taskId != null) {
      const text = await downloadRunLog(client, workflowId, {
        taskId: task.taskId,
        fileName: ".command.err",
      }).catch(() => "");
      stderr = text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .slice(-STDERR_LINES);
    }
    tails.push({ task, stderr });
  }
  return [...tails, ...tasks.slice(TASKS_READ).map((task) => ({ task, stderr: [] }))];
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
    for (const { task } of tasks) {
      lines.push(`| ${cell(html(task.name ?? String(task.taskId ?? "?")))} | ${exitOf(task)} |`);
    }
    lines.push("");
    for (const { task, stderr } of tasks) {
      if (stderr.length === 0) continue;
      lines.push(
        `<details><summary>${html(task.name ?? "?")}: last lines of standard error</summary>`,
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
