import type { HedgingOptions } from './hedging-options.js';
import { either, integer, milliseconds, numberIn, objectOf, oneOf } from '../../options/option-rules.js';

/** How {@link HedgingOptions} are checked. @publicApi */
export const HEDGING_OPTIONS_RULE = objectOf<HedgingOptions>({
  delayMs: either(oneOf(['p90', 'p95', 'p99']), milliseconds()),
  maxExtraShare: numberIn(0, 1),
  minSamples: integer(1),
});
