import type { VirtualClockOptions } from '../../clock/virtual-clock-options.js';
import { finiteNumber, limit, objectOf } from '../option-rules.js';

/** How {@link VirtualClockOptions} are checked. @publicApi */
export const VIRTUAL_CLOCK_OPTIONS_RULE = objectOf<VirtualClockOptions>({
  startMs: finiteNumber(),
  maxTimersPerRun: limit(1),
});
