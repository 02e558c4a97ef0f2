/** `result 93, rate_limited 7` (largest first), or `none`. */
export function describeCounts(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  return entries.length === 0
    ? 'none'
    : entries.map(([key, count]) => `${key} ${count}`).join(', ');
}

/** A clock duration for people: `250 ms`, `30.0 s`. */
export function formatMs(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${(ms / 1_000).toFixed(1)} s`;
}

/** The retry counts' keys as numbers, in order, from 0 to the highest observed. */
export function retryColumns(...counts: readonly Readonly<Record<string, number>>[]): string[] {
  const highest = Math.max(0, ...counts.flatMap((count) => Object.keys(count).map(Number)));
  return Array.from({ length: highest + 1 }, (_, retries) => String(retries));
}
