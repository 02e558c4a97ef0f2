/**
 * @toolshield/core/testing: helpers for tests of code that uses toolshield: the virtual clock.
 *
 * @packageDocumentation
 */
export { VirtualClock } from '../clock/virtual-clock.js';
export type { VirtualClockOptions } from '../clock/virtual-clock-options.js';
export type { CancelTimer, Clock } from '../clock/clock.js';
export { withLateTimers } from './late-timers.js';
