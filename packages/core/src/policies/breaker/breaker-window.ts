import type { BucketRotation } from './bucket-rotation.js';
import type { CircuitBreakerStats } from './breaker-call-options.js';
import { openRollingWindow, type RollingWindow } from './opossum-window.js';
import type { OpeningRuleCounts } from './opening-rule.js';

/** A window's counts, current as of one rotation generation. */
interface WindowTally {
  successes: number;
  failures: number;
  readonly generation: number;
}

/**
 * A closed breaker's counting window: opossum's rolling window, rotated by a shared
 * {@link BucketRotation}, with a cache of its counts and the current run of failures.
 * Opossum's `stats` sums every field of every bucket, so the counts are read from it only
 * when its buckets rotated since the last read: between rotations this window's own
 * increments keep them current, and a failure's opening decision costs no sum.
 *
 * @internal
 */
export class BreakerWindow {
  private window: RollingWindow;
  private tally: WindowTally | undefined;
  /** Consecutive failures counted (0 after a success or in a fresh window). */
  private failureRun = 0;

  constructor(
    private readonly rotation: BucketRotation,
    private readonly windowMs: number,
    private readonly buckets: number,
  ) {
    this.window = this.open();
  }

  /** The counts in the window now, with the current run. */
  counts(): OpeningRuleCounts {
    const { successes, failures } = this.tallied();
    return { successes, failures, run: this.failureRun };
  }

  /** Opossum's own sums over every bucket, as of its last rotation (no cache, no catch-up). */
  get stats(): CircuitBreakerStats {
    return this.window.stats;
  }

  /** Counts a call the way an opossum breaker counts one it fired. */
  count(failed: boolean, durationMs: number): void {
    const tally = this.tallied();
    this.window.increment('fires');
    this.window.increment(failed ? 'failures' : 'successes', durationMs);
    if (failed) tally.failures++;
    else tally.successes++;
    this.failureRun = failed ? this.failureRun + 1 : 0;
  }

  /** Starts a fresh window (with `initial` in its newest bucket), so old failures cannot re-open it. */
  restart(initial?: CircuitBreakerStats): void {
    this.window.shutdown();
    this.window = this.open(initial);
    this.tally = undefined;
    this.failureRun = 0;
  }

  /** Shuts the window down, which removes its rotation listener. */
  shutdown(): void {
    this.window.shutdown();
  }

  private tallied(): WindowTally {
    this.rotation.catchUp();
    const generation = this.rotation.generation;
    if (this.tally?.generation !== generation) {
      const { successes, failures } = this.stats;
      this.tally = { successes, failures, generation };
    }
    return this.tally;
  }

  private open(initial?: CircuitBreakerStats): RollingWindow {
    return openRollingWindow({
      windowMs: this.windowMs,
      buckets: this.buckets,
      rotation: this.rotation.controller,
      ...(initial === undefined ? {} : { initial }),
    });
  }
}
