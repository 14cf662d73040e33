/** The resource figures of a run's `workflowProgress` (and each `processesProgress`), by name. */
export const LOAD_FIGURES = [
  "cpus",
  "cpuTime",
  "cpuLoad",
  "memoryRss",
  "memoryReq",
  "readBytes",
  "writeBytes",
  "volCtxSwitch",
  "invCtxSwitch",
  "loadTasks",
  "loadCpus",
  "loadMemory",
  "peakCpus",
  "peakTasks",
  "peakMemory",
  "memoryEfficiency",
  "cpuEfficiency",
] as const;

export type LoadFigure = (typeof LOAD_FIGURES)[number];

/** Figures a seed gives for a run, answered instead of the derived ones. */
export type SeededLoad = Partial<Record<LoadFigure, number>>;

/** What the figures of a task are made from. */
export interface MeasuredTask {
  status: string;
  start?: string;
  complete?: string;
  cpus: number;
  memory: number;
}

/** What a task asks for unless seeded: 2 CPUs and 4 GiB, as an nf-core process_low. */
export const DEFAULT_CPUS = 2;
export const DEFAULT_MEMORY = 4 * 1024 ** 3;

/**
 * Derived figures rest on stated assumptions, so that a report over emulated runs has
 * plausible, checkable numbers: tasks use 65% of their CPU time and half their memory, and a
 * CPU hour costs 0.04 USD (an on-demand cloud vCPU).
 */
const CPU_USE = 0.65;
const MEMORY_USE = 0.5;
const USD_PER_CPU_HOUR = 0.04;

/** How long a task has run, in ms: start to end, or to `now` while it runs. */
export function realtime(task: MeasuredTask, now: string): number | undefined {
  if (!task.start) return undefined;
  const end = task.complete ?? (task.status === "RUNNING" ? now : task.start);
  return Math.max(0, Date.parse(end) - Date.parse(task.start));
}

/** A task's cost: its CPUs for the time it ran, at the CPU hour's price (whole micro-dollars). */
export function taskCost(task: MeasuredTask, now: string): number {
  const hours = (realtime(task, now) ?? 0) / 3_600_000;
  return Math.round(task.cpus * hours * USD_PER_CPU_HOUR * 1e6) / 1e6;
}

/** The figures of these tasks (one run's, or one process's), as the service sums them. */
export function loadOf(
  tasks: MeasuredTask[],
  now: string,
): Record<LoadFigure, number> & { cost: number } {
  const started = tasks.filter((t) => t.start !== undefined);
  const running = tasks.filter((t) => t.status === "RUNNING");
  const sum = (of: (t: MeasuredTask) => number, among = started) =>
    among.reduce((total, t) => total + of(t), 0);
  const cpuTime = Math.round(sum((t) => t.cpus * (realtime(t, now) ?? 0) * CPU_USE));
  const measured = started.length > 0;
  return {
    cpus: sum((t) => t.cpus),
    cpuTime,
    cpuLoad: cpuTime,
    memoryReq: sum((t) => t.memory),
    memoryRss: Math.round(sum((t) => t.memory * MEMORY_USE)),
    readBytes: 0,
    writeBytes: 0,
    volCtxSwitch: 0,
    invCtxSwitch: 0,
    loadTasks: running.length,
    loadCpus: sum((t) => t.cpus, running),
    loadMemory: sum((t) => t.memory, running),
    // The emulator runs one task at a time: the peak is the largest task.
    peakCpus: Math.max(0, ...started.map((t) => t.cpus)),
    peakTasks: measured ? 1 : 0,
    peakMemory: Math.max(0, ...started.map((t) => t.memory)),
    memoryEfficiency: measured ? MEMORY_USE * 100 : 0,
    cpuEfficiency: measured ? CPU_USE * 100 : 0,
    cost: Math.round(sum((t) => taskCost(t, now)) * 1e6) / 1e6,
  };
}
