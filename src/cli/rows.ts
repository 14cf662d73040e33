/**
 * The rows of `launch --rows`: CSV with a header row, or JSON lines (one object a line). Each
 * row is its columns' values by name; a row that cannot be read is kept as its problem, so that
 * the other rows still run.
 */
import { UsageError } from "../errors/cli-errors.js";

/** A cell: CSV gives text; a JSON line may give a switch, a number or a list too. */
export type Cell = string | number | boolean | null | readonly string[];

export type Row = { row: number; cells: Record<string, Cell> } | { row: number; problem: string };

/**
 * The rows of the text; JSON lines when its first non-blank character is "{", else CSV. Rows
 * are numbered from 1, the header not counted; blank lines are skipped.
 */
export function readRows(label: string, text: string): Row[] {
  return /^\s*\{/.test(text) ? jsonRows(text) : csvRows(label, text);
}

function jsonRows(text: string): Row[] {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  return lines.map((line, index): Row => {
    const row = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // V8's message quotes the line, which may name private paths: say only what is wrong.
      return { row, problem: "is not JSON" };
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { row, problem: "is not a JSON object of settings by flag name" };
    }
    for (const [name, cell] of Object.entries(value)) {
      const list = Array.isArray(cell) && cell.every((item) => typeof item === "string");
      if (typeof cell === "object" && cell !== null && !list) {
        return { row, problem: `column "${name}" holds an object: give text, a switch or a list` };
      }
    }
    return { row, cells: value as Record<string, Cell> };
  });
}

/** RFC 4180: commas, double quotes around a field ("" inside is one quote), CRLF or LF ends. */
function csvRows(label: string, text: string): Row[] {
  const records = csvRecords(label, text.replace(/^\uFEFF/, ""));
  const [header, ...rest] = records;
  if (header === undefined) return [];
  const names = header.map((name) => name.trim());
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw new UsageError(`${label}: column "${twice}" is given twice.`);
  return rest.map((fields, index): Row => {
    const row = index + 1;
    if (fields.length !== names.length) {
      return { row, problem: `has ${fields.length} fields, the header ${names.length}` };
    }
    return { row, cells: Object.fromEntries(names.map((name, at) => [name, fields[at]!])) };
  });
}

function csvRecords(label: string, text: string): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = "";
  let at = 0;
  let line = 1;
  const endRecord = () => {
    fields.push(field);
    // A blank line is no record.
    if (fields.length > 1 || fields[0] !== "") records.push(fields);
    fields = [];
    field = "";
  };
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"' && field === "") {
      const start = line;
      at++;
      for (;;) {
        if (at >= text.length) {
          throw new UsageError(`${label}: the quoted field of line ${start} is not closed.`);
        }
        if (text[at] === '"') {
          if (text[at + 1] !== '"') break;
          at++;
        } else if (text[at] === "\n") line++;
        field += text[at++];
      }
      at++;
      const next = text[at];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r") {
        throw new UsageError(`${label}: line ${line} has text after a closing quote.`);
      }
    } else if (char === ",") {
      fields.push(field);
      field = "";
      at++;
    } else if (char === "\n" || char === "\r") {
      endRecord();
      at += char === "\r" && text[at + 1] === "\n" ? 2 : 1;
      line++;
    } else {
      field += char;
      at++;
    }
  }
  if (field !== "" || fields.length > 0) endRecord();
  return records;
}
