import type { LoopGuardOptions } from './loop-guard-options.js';
import { either, limit, objectOf, recordOf } from '../../options/option-rules.js';

/** How {@link LoopGuardOptions} are checked: every limit is a count from 1, or Infinity. @publicApi */
export const LOOP_GUARD_OPTIONS_RULE = objectOf<LoopGuardOptions>({
  maxSteps: limit(1),
  maxConsecutiveFailures: limit(1),
  maxRepeatedFailures: limit(1),
  maxCallsPerRun: limit(1),
  maxCallsPerTool: either(limit(1), recordOf(limit(1))),
});
