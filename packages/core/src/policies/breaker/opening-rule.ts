import type { ResolvedCircuitBreakerOptions } from './circuit-breaker-options.js';
import { exceedsRatio, runNeeded, shouldOpen } from './opening-decision.js';

/**
 * What a closed breaker's rolling window holds when it decides whether to open: this
 * instance's counts plus, with a shared window, the other instances' last known counts.
 *
 * @publicApi
 */
export interface OpeningRuleCounts {
  readonly successes: number;
  readonly failures: number;
  /** This instance's consecutive failures up to now (0 after a success or in a fresh window). */
  readonly run: number;
}

/**
 * When a closed breaker opens: asked after every failure it counts, and when other
 * instances' counts arrive through a shared window. The breaker gives it its resolved
 * options (`volumeThreshold`, `errorThresholdPercentage`, ...). Pick one of
 * {@link openingRules} with the `openingRule` option, or write your own.
 *
 * @publicApi
 */
export interface BreakerOpeningRule {
  /** Whether the breaker opens now. Must be cheap: it runs on the call path of failures. */
  shouldOpen(counts: OpeningRuleCounts, options: ResolvedCircuitBreakerOptions): boolean;
}

/**
 * The breaker's opening rules, by name; pass one as the `openingRule` option.
 *
 * - **`failureRatioOrRun`** (the default): either of the two below.
 * - **`failureRatio`**: with at least `volumeThreshold` calls in the window, the failure share
 *   is above `errorThresholdPercentage` (opossum's and resilience4j's rule, unchanged, so
 *   explicit settings keep their meaning).
 * - **`failureRun`**: the current run of consecutive failures is too long to be chance at the
 *   failure rate the window saw before the run (probability below one in a million, and
 *   never fewer than 3 failures). After healthy traffic a dead upstream opens the breaker
 *   within 3 to 5 calls, long before the ratio of a 10 s window crosses 50 %; a tool that
 *   fails one call in three needs 12 in a row, a cold breaker 20. It reads no option.
 *
 * All of them see calls, not attempts (a call whose retry succeeded is a success), which is
 * what keeps a flaky but healthy upstream from opening the breaker.
 *
 * @example
 * // opossum's rule alone: never open on a run of failures below volumeThreshold calls
 * new CircuitBreakerRegistry({ defaults: { openingRule: openingRules.failureRatio } });
 * @publicApi
 */
export const openingRules: Readonly<{
  failureRatioOrRun: BreakerOpeningRule;
  failureRatio: BreakerOpeningRule;
  failureRun: BreakerOpeningRule;
}> = Object.freeze({
  failureRatioOrRun: Object.freeze({
    shouldOpen: (counts: OpeningRuleCounts, options: ResolvedCircuitBreakerOptions) =>
      shouldOpen(counts, options.volumeThreshold, options.errorThresholdPercentage),
  }),
  failureRatio: Object.freeze({
    shouldOpen: (counts: OpeningRuleCounts, options: ResolvedCircuitBreakerOptions) =>
      exceedsRatio(counts, options.volumeThreshold, options.errorThresholdPercentage),
  }),
  failureRun: Object.freeze({
    shouldOpen: (counts: OpeningRuleCounts) => counts.run >= runNeeded(counts),
  }),
});
