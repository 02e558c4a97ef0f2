import type {
  BreakerOpeningRule,
  OpeningRuleCounts,
  ResolvedCircuitBreakerOptions,
} from './circuit-breaker-options.interface.js';
import { exceedsRatio, runNeeded, shouldOpen } from './opening-decision.js';

export type { BreakerOpeningRule, OpeningRuleCounts } from './circuit-breaker-options.interface.js';

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
