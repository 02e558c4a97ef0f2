import type { RateController } from './rate-controller.js';

/**
 * How the default controller ({@link defaultRateController}) moves an adaptive limiter's rate.
 * Every field has a default; `adaptive: true` takes them all, and they suit an unknown limit
 * from a few calls a second up.
 *
 * @publicApi
 */
export interface AdaptiveRateOptions {
  /** The lowest rate it slows to, in calls per second (default 0.5). */
  readonly minRate?: number;
  /** The highest rate it probes up to, in calls per second (default 10,000). */
  readonly maxRate?: number;
  /** Factor applied on a refusal when too few calls tell what the upstream admitted (default 0.7). */
  readonly decreaseFactor?: number;
  /**
   * Refusals within this many ms of a slow-down (or of calls sent before it) are its echoes:
   * they pause the callers, twice as long each time, instead of slowing again (default 1,000).
   */
  readonly decreaseCooldownMs?: number;
  /**
   * How fast the rate probes past the ceiling (the rate last refused) after a slow-down: the
   * cubic's C, relative to the ceiling (default 0.2: back to 99 % of it within about 0.6 s,
   * 10 % past it some 1.6 s after the slow-down while nothing is refused).
   */
  readonly growth?: number;
}

/**
 * A client-side rate limit: calls leave at `rate` per second with up to `burst` at once,
 * in the order they arrive; a call that would wait longer than `maxWaitMs` (or than what is
 * left of its own budget) fails at once with `rate_limited` and the wait it would have had.
 *
 * @example
 * // An unknown limit: start at 10 calls a second, one at a time, learn the real limit from
 * // the upstream's refusals and headers (slow start doubles the rate every second):
 * { rate: 10, adaptive: true }
 * @publicApi
 */
export interface RateLimitOptions {
  /** Calls per second (a starting guess when `adaptive`). Default 10. */
  readonly rate?: number;
  /**
   * Calls that may leave at once after a quiet spell (default 1). With `adaptive`, keep 1
   * unless the upstream allows bursts: every pause ends with `burst` calls at once.
   */
  readonly burst?: number;
  /** The longest a call waits in the queue before it is refused (default 30,000 ms). */
  readonly maxWaitMs?: number;
  /** Calls that may wait at once; more are refused (default 10,000). */
  readonly maxQueue?: number;
  /**
   * Learn the upstream's limit from its refusals and rate-limit headers: `true` (the default
   * controller), its tuning, or a {@link RateController} of your own.
   */
  readonly adaptive?: boolean | AdaptiveRateOptions | RateController;
  /**
   * How much later than its turn a call may reach the upstream, in ms (default 0): a busy
   * event loop, the HTTP hop, the upstream's own clock. Calls delivered unevenly bunch at the
   * upstream, so the limiter keeps `rate` calls (plus the burst) within any 1 s widened by this
   * allowance: it paces at `rate × 1000 / (1000 + deliveryJitterMs)`, a throughput cost of
   * `deliveryJitterMs / (1000 + deliveryJitterMs)` (100 ms: 9 %), and a call its timer let
   * out late moves the next one on by as much (at 0, up to half an interval of a timer's
   * lateness is made up, so that the rate holds). On a shared store, a call
   * whose instance wakes more than a quarter of the allowance (at least 5 ms) after its
   * reserved slot gives the slot up instead of leaving late; the rest of the allowance is
   * left for the way to the upstream.
   */
  readonly deliveryJitterMs?: number;
}

/** The defaults of {@link RateLimitOptions}. @publicApi */
export const DEFAULT_RATE_LIMIT = {
  rate: 10,
  burst: 1,
  maxWaitMs: 30_000,
  maxQueue: 10_000,
  deliveryJitterMs: 0,
} as const;

/** The defaults of {@link AdaptiveRateOptions}. @publicApi */
export const DEFAULT_ADAPTIVE_RATE = {
  minRate: 0.5,
  maxRate: 10_000,
  decreaseFactor: 0.7,
  decreaseCooldownMs: 1_000,
  growth: 0.2,
} as const;
