import { distance } from "fastest-levenshtein";

/**
 * The candidates nearest to `name`, for "did you mean" hints (case-insensitive): those within
 * a plausible slip by edit distance first, then those containing `name` ("workflows" finds
 * ListWorkflows); at most `count`.
 */
export function closest(name: string, candidates: Iterable<string>, count = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.ceil(wanted.length / 3));
  const scored = [...new Set(candidates)].map((candidate) => {
    const lower = candidate.toLowerCase();
    const d = distance(wanted, lower);
    // Containment ranks after every near miss, shorter candidates (closer to the name) first.
    const score = d <= limit ? d : wanted.length >= 3 && lower.includes(wanted) ? 100 + d : NaN;
    return { candidate, score };
  });
  return scored
    .filter(({ score }) => !Number.isNaN(score))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}

/** " Did you mean a, b?" or "" when nothing is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const near = closest(name, candidates);
  return near.length === 0 ? "" : ` Did you mean ${near.join(", ")}?`;
}
