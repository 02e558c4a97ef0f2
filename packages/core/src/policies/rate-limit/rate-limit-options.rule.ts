import type { AdaptiveRateOptions, RateLimitOptions } from './rate-limit-options.js';
import type { OptionRules } from '../../options/option-rules.js';
import {
  bool,
  either,
  integer,
  milliseconds,
  numberIn,
  objectOf,
} from '../../options/option-rules.js';
import type { OptionRule } from '../../options/option-rule.js';
import { isRateController } from './rate-controller.js';

/** Calls per second: a finite number above 0. */
const RATE_RULE: OptionRule = {
  expected: 'a number of calls per second above 0',
  accepts: (value) => typeof value === 'number' && Number.isFinite(value) && value > 0,
};

/** A {@link RateController} of the user's own. */
const CONTROLLER_RULE: OptionRule = {
  expected: 'a RateController (admitted, refused, adopt)',
  accepts: isRateController,
};

/** How {@link AdaptiveRateOptions} are checked. @publicApi */
export const ADAPTIVE_RATE_OPTIONS_RULE = objectOf<AdaptiveRateOptions>({
  minRate: RATE_RULE,
  maxRate: RATE_RULE,
  decreaseFactor: numberIn(0, 1, true),
  decreaseCooldownMs: milliseconds(),
  growth: RATE_RULE,
});

/** The rules of each {@link RateLimitOptions} field, for option groups that reuse them. @publicApi */
export const RATE_LIMIT_OPTION_RULES: OptionRules<RateLimitOptions> = {
  rate: RATE_RULE,
  burst: integer(1),
  maxWaitMs: milliseconds(),
  maxQueue: integer(0),
  adaptive: either(bool(), CONTROLLER_RULE, ADAPTIVE_RATE_OPTIONS_RULE),
  deliveryJitterMs: milliseconds(),
};

/** How {@link RateLimitOptions} are checked. @publicApi */
export const RATE_LIMIT_OPTIONS_RULE = objectOf<RateLimitOptions>(RATE_LIMIT_OPTION_RULES);
