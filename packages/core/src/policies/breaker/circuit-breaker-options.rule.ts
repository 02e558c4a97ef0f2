import type { CircuitBreakerOptions } from './circuit-breaker-options.interface.js';
import type { OptionRules } from '../../options/option-rules.js';
import {
  func,
  integer,
  milliseconds,
  numberIn,
  objectOf,
  withMethods,
} from '../../options/option-rules.js';

/** The rules of each {@link CircuitBreakerOptions} field, for option groups that extend it. @publicApi */
export const CIRCUIT_BREAKER_OPTION_RULES: OptionRules<CircuitBreakerOptions> = {
  // The breaker opens when the failure percentage *exceeds* this: 100 could never open it.
  errorThresholdPercentage: numberIn(0, 100, true),
  volumeThreshold: integer(1),
  openingRule: withMethods('an opening rule', ['shouldOpen']),
  rollingWindowMs: milliseconds({ positive: true }),
  rollingBuckets: integer(1),
  resetTimeoutMs: milliseconds(),
  halfOpenMaxCalls: integer(1),
  slowCallDurationMs: milliseconds({ positive: true, unlimited: true }),
  isNeutral: func(),
};

/** How {@link CircuitBreakerOptions} are checked. @publicApi */
export const CIRCUIT_BREAKER_OPTIONS_RULE = objectOf<CircuitBreakerOptions>(
  CIRCUIT_BREAKER_OPTION_RULES,
);
