import type { BreakerHandle, SharedWindowCounts } from '@toolshield/core/internal';

/** Successes and failures, as counted (mutable). */
export interface Tally {
  successes: number;
  failures: number;
}

/** The length of one bucket of `breaker`'s rolling window, and how many it has. @internal */
export function bucketsOf(breaker: BreakerHandle): { bucketMs: number; buckets: number } {
  const { rollingWindowMs, rollingBuckets } = breaker.options;
  return { bucketMs: rollingWindowMs / rollingBuckets, buckets: rollingBuckets };
}

/** The indices of the buckets in `breaker`'s window at `now`, oldest first. @internal */
export function windowOf(breaker: BreakerHandle, now: number): number[] {
  const { bucketMs, buckets } = bucketsOf(breaker);
  const newest = Math.floor(now / bucketMs);
  return Array.from({ length: buckets }, (_, index) => newest - buckets + 1 + index);
}

/** The sum of `buckets`. @internal */
export function totalOf(buckets: readonly Tally[]): SharedWindowCounts {
  let successes = 0;
  let failures = 0;
  for (const counts of buckets) {
    successes += counts.successes;
    failures += counts.failures;
  }
  return { successes, failures };
}
