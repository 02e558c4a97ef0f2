/** The most arrivals (ms) in any window of `windowMs`, sliding over the arrival times. */
export function busiestWindow(arrivals: readonly number[], windowMs: number): number {
  const sorted = [...arrivals].sort((x, y) => x - y);
  let most = 0;
  for (let start = 0, end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}
