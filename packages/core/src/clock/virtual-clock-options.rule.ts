import type { VirtualClockOptions } from './virtual-clock-options.js';
import { finiteNumber, limit, objectOf } from '../options/option-rules.js';

/** How {@link VirtualClockOptions} are checked. @publicApi */
export const VIRTUAL_CLOCK_OPTIONS_RULE = objectOf<VirtualClockOptions>({
  startMs: finiteNumber(),
  maxTimersPerRun: limit(1),
});
