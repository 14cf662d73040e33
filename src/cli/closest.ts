import { nearNames } from "../core/near-names.js";

/** The nearest candidates (the automation helpers' measure), at most three. */
export function closest(name: string, candidates: Iterable<string>): string[] {
  return nearNames(name, [...candidates]).slice(0, 3);
}

/** " Did you mean a, b?" or "" when nothing is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const near = closest(name, candidates);
  return near.length === 0 ? "" : ` Did you mean ${near.join(", ")}?`;
}
