import type { OperationInfo } from "../../generated/operations.js";

export interface RouteMatch {
  info: OperationInfo;
  /** Decoded path parameters, still strings. */
  params: Record<string, string>;
}

interface Template {
  info: OperationInfo;
  segments: { literal?: string; param?: string }[];
}

/**
 * Data-link content paths contain slashes; a client may send them encoded (one segment) or
 * not, so a trailing parameter named like a path also takes the remaining segments.
 */
const MULTI_SEGMENT_PARAM = /path$/i;

/** Matches "METHOD /concrete/path" to an operation; literal segments beat parameters. */
export function createRouter(
  table: Record<string, OperationInfo>,
): (method: string, pathname: string) => RouteMatch | undefined {
  const byMethod = new Map<string, Template[]>();
  for (const info of Object.values(table)) {
    const segments = split(info.path).map((s) => {
      const param = /^\{(.+)\}$/.exec(s)?.[1];
      return param ? { param } : { literal: s };
    });
    const list = byMethod.get(info.method) ?? [];
    list.push({ info, segments });
    byMethod.set(info.method, list);
  }
  for (const list of byMethod.values()) list.sort(bySpecificity);

  return (method, pathname) => {
    const templates = byMethod.get(method.toUpperCase()) ?? [];
    const parts = split(pathname);
    for (const greedy of [false, true]) {
      for (const template of templates) {
        const params = match(template, parts, greedy);
        if (params) return { info: template.info, params };
      }
    }
    return undefined;
  };
}

function split(path: string): string[] {
  return path.split("/").filter((s) => s !== "");
}

/** Earlier literal segments first, so "/workflow/launch" wins over "/workflow/{workflowId}". */
function bySpecificity(a: Template, b: Template): number {
  const length = Math.max(a.segments.length, b.segments.length);
  for (let i = 0; i < length; i++) {
    const la = a.segments[i]?.literal !== undefined;
    const lb = b.segments[i]?.literal !== undefined;
    if (la !== lb) return la ? -1 : 1;
  }
  return b.segments.length - a.segments.length;
}

function match(
  template: Template,
  parts: string[],
  greedy: boolean,
): Record<string, string> | undefined {
  const { segments } = template;
  const last = segments[segments.length - 1];
  const takesRest = greedy && last?.param !== undefined && MULTI_SEGMENT_PARAM.test(last.param);
  if (takesRest ? parts.length < segments.length : parts.length !== segments.length)
    return undefined;
  if (greedy && !takesRest) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const isRest = takesRest && i === segments.length - 1;
    const raw = isRest ? parts.slice(i).join("/") : parts[i]!;
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment.literal !== undefined) {
      if (segment.literal !== value) return undefined;
    } else params[segment.param!] = value;
  }
  return params;
}
