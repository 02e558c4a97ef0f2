import type { Clock } from '../clock/clock.js';
import type { VirtualClock } from '../clock/virtual-clock.js';

/**
 * `clock`, the n-th timer set on it (from 0) firing `latenessMs(n)` after its time: a real
 * event loop's timers fire a millisecond or two late, and much later in a stall. For specs of
 * code that must hold up when its timers fire late (a rate limiter keeping its pace).
 *
 * @example
 * const clock = new VirtualClock();
 * const late = withLateTimers(clock, (timer) => (timer === 0 ? 60 : 0)); // the first fires 60 ms late
 * @publicApi
 */
export function withLateTimers(clock: VirtualClock, latenessMs: (timer: number) => number): Clock {
  let timers = 0;
  return {
    now: () => clock.now(),
    setTimer: (callback, delayMs) => clock.setTimer(callback, delayMs + latenessMs(timers++)),
  };
}
