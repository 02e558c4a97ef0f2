import type { CancelTimer, Clock } from './clock.js';

/** The longest delay `setTimeout` honours; longer delays are chained in steps of this size. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** @publicApi */
export interface SystemClockOptions {
  /**
   * Unref the timers so a pending timer never keeps the process alive (default `false`).
   * Useful for background timers such as a breaker registry's bucket rotation.
   */
  readonly unref?: boolean;
}

/**
 * The real clock: `Date.now()` and `setTimeout`. Delays longer than `setTimeout` accepts
 * (about 24.8 days) are chained instead of firing at once, and negative or `NaN` delays run
 * on the next turn of the event loop.
 *
 * @publicApi
 */
export class SystemClock implements Clock {
  private readonly unref: boolean;

  constructor(options: SystemClockOptions = {}) {
    this.unref = options.unref ?? false;
  }

  now(): number {
    return Date.now();
  }

  setTimer(callback: () => void, delayMs: number): CancelTimer {
    let remaining = Number.isNaN(delayMs) ? 0 : Math.max(0, delayMs);
    if (remaining <= MAX_TIMEOUT_MS) {
      // The common case, kept to one closure: a timer is held for as long as a call runs.
      const single = setTimeout(callback, remaining);
      if (this.unref) single.unref();
      return () => clearTimeout(single);
    }
    let handle: ReturnType<typeof setTimeout> | undefined;
    const schedule = (): void => {
      const step = Math.min(remaining, MAX_TIMEOUT_MS);
      remaining -= step;
      handle = setTimeout(() => {
        if (remaining > 0) {
          schedule();
        } else {
          handle = undefined;
          callback();
        }
      }, step);
      if (this.unref) handle.unref();
    };
    schedule();
    return () => {
      if (handle !== undefined) {
        clearTimeout(handle);
        handle = undefined;
      }
    };
  }
}

/**
 * A shared {@link SystemClock} with ref'd timers, the default clock of every policy.
 *
 * @publicApi
 */
export const systemClock: Clock = new SystemClock();
