import type { OpeningRuleCounts } from './circuit-breaker-options.interface.js';

/** A run of failures less likely than this, at the window's failure rate, is not chance. */
const RUN_PROBABILITY = 1e-6;
/** Never open on fewer consecutive failures than this. */
const MIN_RUN = 3;

/**
 * The default opening rule (`openingRules.failureRatioOrRun`): the run of failures is
 * improbable ({@link runNeeded}), or the failure ratio is exceeded ({@link exceedsRatio}).
 *
 * @internal
 */
export function shouldOpen(
  counts: OpeningRuleCounts,
  volumeThreshold: number,
  errorThresholdPercentage: number,
): boolean {
  if (counts.run >= runNeeded(counts)) return true;
  return exceedsRatio(counts, volumeThreshold, errorThresholdPercentage);
}

/**
 * The ratio rule: with at least `volumeThreshold` calls in the window, the failure share is
 * above `errorThresholdPercentage` (opossum's and resilience4j's rule, unchanged).
 *
 * @internal
 */
export function exceedsRatio(
  counts: OpeningRuleCounts,
  volumeThreshold: number,
  errorThresholdPercentage: number,
): boolean {
  const calls = counts.successes + counts.failures;
  return calls >= volumeThreshold && (counts.failures / calls) * 100 > errorThresholdPercentage;
}

/**
 * The run rule's length: consecutive failures improbable (below one in a million) at the
 * failure rate the window saw before the run, and never fewer than 3.
 *
 * @internal
 */
export function runNeeded(counts: OpeningRuleCounts): number {
  const before = Math.max(0, counts.successes + counts.failures - counts.run);
  const failuresBefore = Math.max(0, counts.failures - counts.run);
  // Laplace's rule: an empty window reads as a coin flip, so a cold breaker needs 20 in a row.
  const rate = (failuresBefore + 1) / (before + 2);
  return Math.max(MIN_RUN, Math.ceil(Math.log(RUN_PROBABILITY) / Math.log(rate)));
}
