import { EventEmitter } from 'node:events';
import type { Clock } from '../../clock/clock.js';

/**
 * Rotates the rolling-window buckets of many opossum breakers through one shared
 * `rotateBucketController`, on our {@link Clock} and without any timer: whenever a breaker is
 * about to count or read its window it calls {@link BucketRotation.catchUp}, which emits
 * opossum's `rotate` event once per bucket interval elapsed since the last rotation (at most
 * once per bucket, which empties the window). The cadence is the same as a shared interval
 * timer's, but an idle application does no work, nothing is left running, and
 * `VirtualClock.runAll()` terminates.
 *
 * @publicApi
 */
export class BucketRotation {
  /** Pass as opossum's `rotateBucketController`. */
  readonly controller = new EventEmitter();
  private readonly bucketMs: number;
  private lastRotation: number;
  private rotations = 0;

  constructor(
    private readonly clock: Clock,
    windowMs: number,
    private readonly buckets: number,
  ) {
    this.bucketMs = Math.max(1, Math.floor(windowMs / buckets));
    this.lastRotation = clock.now();
    this.controller.setMaxListeners(0);
  }

  /** Emits the rotations that fell due since the last call. */
  catchUp(): void {
    const due = Math.floor((this.clock.now() - this.lastRotation) / this.bucketMs);
    if (due <= 0) return;
    this.lastRotation += due * this.bucketMs;
    this.rotations += due;
    for (let i = Math.min(due, this.buckets); i > 0; i--) this.controller.emit('rotate');
  }

  /** How many bucket intervals have passed (as of the last catch-up): windows change when it does. */
  get generation(): number {
    return this.rotations;
  }

  /** Breakers whose windows this rotates. */
  get listeners(): number {
    return this.controller.listenerCount('rotate');
  }
}
