import leven from "leven";

/** Names within a few edits of `name`, or one containing the other, closest first; at most 5. */
export function nearNames(name: string, names: readonly string[]): string[] {
  const target = name.toLowerCase();
  const maxDistance = Math.max(2, Math.floor(target.length / 3));
  const near: { name: string; distance: number }[] = [];
  for (const candidate of new Set(names)) {
    if (candidate === "" || candidate === name) continue;
    const lower = candidate.toLowerCase();
    const distance = leven(target, lower);
    const contains =
      Math.min(lower.length, target.length) >= 3 &&
      (lower.includes(target) || target.includes(lower));
    if (distance <= maxDistance || contains) near.push({ name: candidate, distance });
  }
  near.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  return near.slice(0, 5).map((n) => n.name);
}
