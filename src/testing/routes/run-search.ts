import type { Label } from "../state/labels.js";
import type { Run } from "../state/runs.js";

/**
 * The runs list's `search`, as the web interface and `tw runs list --filter` take it: words
 * are ANDed; a bare word is a case-insensitive part of the run name, project name or id;
 * `status:`, `label:`, `workflowId:`, `runName:`, `projectName:`, `userName:` match one field
 * (`status:` and `label:` repeated mean any of them); `after:` and `before:` take a date
 * (YYYY-MM-DD, inclusive) or a timestamp and compare the submission date; `is:starred`.
 */
export function runFilter(
  search: string | undefined,
  labels: (id: number) => Label | undefined,
): (run: Run) => boolean {
  const terms = (search ?? "").trim().split(/\s+/).filter(Boolean).map(parseTerm);
  const statuses = terms.filter((t) => t.key === "status").map((t) => t.value.toUpperCase());
  const wanted = terms.filter((t) => t.key === "label").map((t) => t.value.toLowerCase());
  return (run) => {
    if (statuses.length > 0 && !statuses.includes(run.status)) return false;
    if (wanted.length > 0) {
      const names = run.labelIds.flatMap((id) => {
        const label = labels(id);
        return label
          ? [label.name.toLowerCase(), `${label.name}=${label.value ?? ""}`.toLowerCase()]
          : [];
      });
      if (!wanted.some((w) => names.includes(w))) return false;
    }
    return terms.every((term) => matchesTerm(run, term));
  };
}

interface Term {
  key?: string;
  value: string;
}

function parseTerm(word: string): Term {
  const match =
    /^(status|label|after|before|workflowId|runName|projectName|userName|is):(.+)$/i.exec(word);
  if (!match) return { value: word.toLowerCase() };
  const key = match[1]!.toLowerCase();
  const canonical = ["workflowid", "runname", "projectname", "username"].includes(key)
    ? {
        workflowid: "workflowId",
        runname: "runName",
        projectname: "projectName",
        username: "userName",
      }[key]!
    : key;
  return { key: canonical, value: match[2]! };
}

function matchesTerm(run: Run, { key, value }: Term): boolean {
  const has = (field: string) => field.toLowerCase().includes(value.toLowerCase());
  switch (key) {
    case undefined:
      return has(run.runName) || has(run.pipeline) || has(run.id);
    case "status":
    case "label":
      return true;
    case "after":
      return run.submit >= startOf(value);
    case "before":
      return run.submit <= endOf(value);
    case "workflowId":
      return run.id === value;
    case "runName":
      return has(run.runName);
    case "projectName":
      return has(run.pipeline);
    case "userName":
      return run.userName.toLowerCase() === value.toLowerCase();
    case "is":
      return value.toLowerCase() === "starred" ? run.starred : false;
    default:
      return false;
  }
}

/** A day means from its first second; a timestamp is taken as it is (service form). */
function startOf(value: string): string {
  return /^\d{4}-\d\d-\d\d$/.test(value) ? `${value}T00:00:00Z` : normalise(value);
}

function endOf(value: string): string {
  return /^\d{4}-\d\d-\d\d$/.test(value) ? `${value}T23:59:59Z` : normalise(value);
}

function normalise(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
