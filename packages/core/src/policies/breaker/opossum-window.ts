import CircuitBreaker from 'opossum';
import type { EventEmitter } from 'node:events';

/**
 * The one place toolshield touches opossum. A breaker uses only opossum's rolling window, its
 * `Status` (made with the public `CircuitBreaker.newStatus`), and counts calls into it
 * through `Status.increment` and releases it through `Status.shutdown`: the two methods an
 * opossum breaker itself calls on its `fire`/`success`/`failure` events and when it shuts
 * down, which the published typings leave out. `opossum-window.spec.ts` pins that contract
 * (and the major version) so an upgrade that changes it fails loudly; see ADR 0008.
 */

/** The counts of a rolling window. */
export interface RollingWindowCounts {
  readonly successes: number;
  readonly failures: number;
}

/** The part of opossum's `Status` a breaker uses. */
export interface RollingWindow {
  readonly stats: RollingWindowCounts;
  increment(property: 'fires' | 'successes' | 'failures', latencyMs?: number): void;
  shutdown(): void;
}

/** How to build a window. */
export interface RollingWindowOptions {
  readonly windowMs: number;
  readonly buckets: number;
  /** Emits `rotate` once per bucket interval (see `BucketRotation`); no timer is set. */
  readonly rotation: EventEmitter;
  /** Counts to start the newest bucket with. */
  readonly initial?: RollingWindowCounts;
}

/** A fresh opossum rolling window with snapshots and percentiles off, rotated by `rotation`. */
export function openRollingWindow(options: RollingWindowOptions): RollingWindow {
  return CircuitBreaker.newStatus({
    rollingCountTimeout: options.windowMs,
    rollingCountBuckets: options.buckets,
    rollingPercentilesEnabled: false,
    enableSnapshots: false,
    rotateBucketController: options.rotation,
    stats: options.initial === undefined ? undefined : initialStats(options.initial),
  }) as unknown as RollingWindow;
}

function initialStats({ successes, failures }: RollingWindowCounts): CircuitBreaker.Stats {
  return {
    successes,
    failures,
    fires: successes + failures,
    fallbacks: 0,
    rejects: 0,
    timeouts: 0,
    cacheHits: 0,
    cacheMisses: 0,
    semaphoreRejections: 0,
    percentiles: {},
    latencyTimes: [],
    latencyMean: 0,
  };
}
