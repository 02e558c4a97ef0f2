import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { CancelTimer, Clock } from './clock.js';
import { assertOptions } from '../options/assert-options.js';
import { VIRTUAL_CLOCK_OPTIONS_RULE } from './virtual-clock-options.rule.js';
import type { VirtualClockOptions } from './virtual-clock-options.js';

export type { VirtualClockOptions } from './virtual-clock-options.js';

interface VirtualTimer {
  readonly due: number;
  /** Insertion order: timers due at the same time run in the order they were set. */
  readonly seq: number;
  readonly callback: () => void;
}

/**
 * A clock whose time moves only when told to, for tests and the chaos harness.
 *
 * `advanceBy` and `advanceTo` run the timers that fall due, one at a time in due-time order
 * (ties in the order they were set), moving `now()` to each timer's due time before running
 * it. They are async: before and after each timer they let every pending promise callback
 * run (by waiting one macrotask), so `await` chains resumed by a timer progress and may set
 * new timers, which also run if they fall due within the advance. Advances must not overlap.
 *
 * @example
 * const clock = new VirtualClock();
 * const done = sleep(clock, 1000);
 * await clock.advanceBy(1000); // `done` has resolved
 *
 * @publicApi
 */
export class VirtualClock implements Clock {
  private current: number;
  private readonly maxTimersPerRun: number;
  /** Sorted by (due, seq). */
  private readonly timers: VirtualTimer[] = [];
  private seq = 0;
  private advancing = false;

  constructor(options: VirtualClockOptions = {}) {
    assertOptions(VIRTUAL_CLOCK_OPTIONS_RULE, options, 'VirtualClockOptions');
    this.current = options.startMs ?? 0;
    this.maxTimersPerRun = options.maxTimersPerRun ?? 10_000;
  }

  now(): number {
    return this.current;
  }

  /** How many timers are scheduled and not yet run or cancelled. */
  get pendingTimers(): number {
    return this.timers.length;
  }

  setTimer(callback: () => void, delayMs: number): CancelTimer {
    const delay = Number.isNaN(delayMs) ? 0 : Math.max(0, delayMs);
    const timer: VirtualTimer = { due: this.current + delay, seq: this.seq++, callback };
    this.timers.splice(this.insertionIndex(timer), 0, timer);
    return () => {
      const index = this.timers.indexOf(timer);
      if (index >= 0) this.timers.splice(index, 1);
    };
  }

  /** Moves time forward by `ms`, running every timer that falls due on the way. */
  advanceBy(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new RangeError(`VirtualClock cannot advance by ${ms} ms`);
    return this.advanceTo(this.current + ms);
  }

  /** Moves time forward to `timeMs`, running every timer that falls due on the way. */
  async advanceTo(timeMs: number): Promise<void> {
    if (!(timeMs >= this.current)) {
      throw new RangeError(`VirtualClock cannot go back from ${this.current} to ${timeMs}`);
    }
    await this.run((next) => next.due <= timeMs, Number.POSITIVE_INFINITY);
    this.current = timeMs;
  }

  /**
   * Runs timers until none is left, including timers set by the ones that run, moving time
   * to each. Throws when more than `maxTimersPerRun` timers ran (a timer loop never ends).
   */
  async runAll(): Promise<void> {
    await this.run(() => true, this.maxTimersPerRun);
  }

  /**
   * Runs timers one due time after another until `promise` settles, and returns it: for a
   * test awaiting work (an agent loop, say) that sets its timers only after some turns of
   * the event loop. Turns without a pending timer just let that work progress. Throws after
   * `maxTimersPerRun` turns without the promise settling.
   *
   * @example
   * const result = await clock.runUntilSettled(generateText({ model, tools, prompt }));
   */
  async runUntilSettled<T>(promise: Promise<T>): Promise<T> {
    let settled = false;
    const watched = promise.finally(() => {
      settled = true;
    });
    // Handled from the start: a rejection while we wait for a turn of the event loop would
    // otherwise be reported as unhandled (and end a plain Node process) before we return it.
    watched.catch(() => undefined);
    for (let turns = 0; !settled; turns++) {
      if (turns >= this.maxTimersPerRun) {
        throw new Error(
          `VirtualClock.runUntilSettled took ${turns} turns and the promise is still pending`,
        );
      }
      const next = this.timers[0];
      await (next === undefined ? nextMacrotask() : this.advanceTo(next.due));
    }
    return watched;
  }

  private async run(isDue: (next: VirtualTimer) => boolean, limit: number): Promise<void> {
    if (this.advancing)
      throw new Error('VirtualClock is already advancing; await the previous advance');
    this.advancing = true;
    try {
      await nextMacrotask();
      let ran = 0;
      for (let next = this.timers[0]; next !== undefined && isDue(next); next = this.timers[0]) {
        if (ran++ >= limit) {
          throw new Error(`VirtualClock.runAll ran ${limit} timers and timers are still pending`);
        }
        this.timers.shift();
        this.current = Math.max(this.current, next.due);
        next.callback();
        await nextMacrotask();
      }
    } finally {
      this.advancing = false;
    }
  }

  private insertionIndex(timer: VirtualTimer): number {
    let low = 0;
    let high = this.timers.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.timers[mid] as VirtualTimer;
      if (other.due < timer.due || (other.due === timer.due && other.seq < timer.seq))
        low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
