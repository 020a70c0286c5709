/**
 * The known names closest to `name`, best first: those within a few edits of it (a third of
 * its length, at least two) or that contain it or are contained in it. For error messages
 * that say "did you mean …".
 *
 * @example
 * ```ts
 * closeNames("serch_docs", ["search_docs", "list_docs", "purge"]); // ["search_docs"]
 * ```
 */
export function closeNames(name: string, known: Iterable<string>, max = 3): string[] {
  const wanted = name.toLowerCase();
  const reach = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<{ candidate: string; score: number }> = [];
  for (const candidate of new Set(known)) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    const overlaps = wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower));
    if (distance <= reach || overlaps)
      scored.push({ candidate, score: overlaps ? Math.min(distance, reach) : distance });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map((entry) => entry.candidate);
}

/** Levenshtein distance, one row at a time (names are short). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
