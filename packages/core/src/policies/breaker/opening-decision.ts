/** What a breaker's rolling window holds now. @internal */
export interface WindowCounts {
  readonly successes: number;
  readonly failures: number;
  /** Consecutive failures up to now (0 after a success). */
  readonly run: number;
}

/** The z of a one-sided 99.9 % confidence bound. */
const Z_999 = 3.09;
/** A run of failures less likely than this, at the window's failure rate, is not chance. */
const RUN_PROBABILITY = 1e-6;
/** Never open on fewer consecutive failures than this. */
const MIN_RUN = 3;

/**
 * Whether a closed breaker should open, from what its rolling window saw. Two tests, either
 * of which opens it; both ask whether the failures are too many to be the upstream's normal
 * flakiness rather than whether a ratio was crossed once:
 *
 * - **ratio**: with at least `volumeThreshold` calls, the failure share is above
 *   `errorThresholdPercentage` with 99.9 % confidence (the lower Wilson score bound of the
 *   share is above it). A plain share over 10 calls crosses 50 % by chance in about one
 *   window in twenty at a 30 % failure rate; the bound needs a real majority;
 * - **run**: the current run of consecutive failures is too long to be chance at the failure
 *   rate the window saw before the run (probability below one in a million). After healthy
 *   traffic a dead upstream opens the breaker within 3 to 5 calls; a tool that fails one
 *   call in three needs 12 in a row.
 *
 * @internal
 */
export function shouldOpen(
  counts: WindowCounts,
  volumeThreshold: number,
  errorThresholdPercentage: number,
): boolean {
  const calls = counts.successes + counts.failures;
  if (counts.run >= runNeeded(counts)) return true;
  return (
    calls >= volumeThreshold &&
    wilsonLowerBound(counts.failures, calls, Z_999) * 100 > errorThresholdPercentage
  );
}

/** Consecutive failures that are improbable at the failure rate seen before the run. */
export function runNeeded(counts: WindowCounts): number {
  const before = Math.max(0, counts.successes + counts.failures - counts.run);
  const failuresBefore = Math.max(0, counts.failures - counts.run);
  // Laplace's rule: an empty window reads as a coin flip, so a cold breaker needs 20 in a row.
  const rate = (failuresBefore + 1) / (before + 2);
  return Math.max(MIN_RUN, Math.ceil(Math.log(RUN_PROBABILITY) / Math.log(rate)));
}

/** The lower bound of the Wilson score interval of `failures / calls`. */
export function wilsonLowerBound(failures: number, calls: number, z: number): number {
  if (calls === 0) return 0;
  const share = failures / calls;
  const z2 = z * z;
  const centre = share + z2 / (2 * calls);
  const spread = z * Math.sqrt((share * (1 - share) + z2 / (4 * calls)) / calls);
  return Math.max(0, (centre - spread) / (1 + z2 / calls));
}
