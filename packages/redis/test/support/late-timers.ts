import type { Clock } from '@toolshield/core';
import type { VirtualClock } from '@toolshield/core/testing';

/**
 * `clock`, the n-th timer set on it (from 0) firing `latenessMs(n)` after its time: a real
 * event loop's timers fire a millisecond or two late, and much later in a stall.
 */
export function withLateTimers(clock: VirtualClock, latenessMs: (timer: number) => number): Clock {
  let timers = 0;
  return {
    now: () => clock.now(),
    setTimer: (callback, delayMs) => clock.setTimer(callback, delayMs + latenessMs(timers++)),
  };
}
