import type { OptionRule } from '../options/option-rule.js';
import { withMethods } from '../options/option-rules.js';

/** A `Clock`: `now()` and `setTimer()`, such as `systemClock` or a `VirtualClock`. @publicApi */
export const CLOCK_RULE: OptionRule = withMethods('a Clock', ['now', 'setTimer']);
