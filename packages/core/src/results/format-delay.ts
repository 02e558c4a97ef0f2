/** A delay in the fewest characters a reader still understands: `250ms`, `1.5s`, `45s`, `3 min`, `2 h`. */
export function formatDelay(ms: number): string {
  if (ms < 1000) return `${Math.ceil(ms)}ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10}s`;
  if (ms < 7_200_000) return `${Math.ceil(ms / 60_000)} min`;
  return `${Math.ceil(ms / 3_600_000)} h`;
}
