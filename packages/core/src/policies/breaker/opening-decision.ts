/** What a breaker's rolling window holds now. @internal */
export interface WindowCounts {
  readonly successes: number;
  readonly failures: number;
  /** Consecutive failures up to now (0 after a success). */
  readonly run: number;
}

/** A run of failures less likely than this, at the window's failure rate, is not chance. */
const RUN_PROBABILITY = 1e-6;
/** Never open on fewer consecutive failures than this. */
const MIN_RUN = 3;

/**
 * Whether a closed breaker should open, from what its rolling window saw. Either of two
 * rules opens it:
 *
 * - **ratio**: with at least `volumeThreshold` calls in the window, the failure share is above
 *   `errorThresholdPercentage` (opossum's and resilience4j's rule, unchanged, so explicit
 *   settings keep their meaning);
 * - **run**: the current run of consecutive failures is too long to be chance at the failure
 *   rate the window saw before the run (probability below one in a million). After healthy
 *   traffic a dead upstream opens the breaker within 3 to 5 calls, long before the ratio of a
 *   10 s window crosses 50 %; a tool that fails one call in three needs 12 in a row.
 *
 * Both count calls (a call whose retry succeeded is a success), which is what keeps a flaky
 * but healthy upstream from opening it: see ADR 0015.
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
  return calls >= volumeThreshold && (counts.failures / calls) * 100 > errorThresholdPercentage;
}

/** Consecutive failures that are improbable at the failure rate seen before the run. */
export function runNeeded(counts: WindowCounts): number {
  const before = Math.max(0, counts.successes + counts.failures - counts.run);
  const failuresBefore = Math.max(0, counts.failures - counts.run);
  // Laplace's rule: an empty window reads as a coin flip, so a cold breaker needs 20 in a row.
  const rate = (failuresBefore + 1) / (before + 2);
  return Math.max(MIN_RUN, Math.ceil(Math.log(RUN_PROBABILITY) / Math.log(rate)));
}
