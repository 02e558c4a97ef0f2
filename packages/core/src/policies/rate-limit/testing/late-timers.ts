import type { Clock } from '../../../clock/clock.js';
import type { VirtualClock } from '../../../clock/virtual-clock.js';

/**
 * `clock`, with each timer firing `latenessMs()` after its time (asked once per timer): a real
 * event loop's timers fire a millisecond or two late, and much later in a stall.
 *
 * @internal
 */
export function withLateTimers(clock: VirtualClock, latenessMs: () => number): Clock {
  return {
    now: () => clock.now(),
    setTimer: (callback, delayMs) => clock.setTimer(callback, delayMs + latenessMs()),
  };
}
