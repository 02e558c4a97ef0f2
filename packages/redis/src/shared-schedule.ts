/** What a limiter asks a {@link RateLimitStore} for: the next slot of its key's schedule. @publicApi */
export interface RateLimitSlotRequest {
  /** Calls per second the schedule spaces slots at (the limiter's rate now). */
  readonly rate: number;
  /** Calls that may leave at once after a quiet spell. */
  readonly burst: number;
  /** The furthest away a slot may be; a later one is refused and nothing is reserved. */
  readonly maxWaitMs: number;
}

/**
 * A store's answer: a slot reserved `waitMs` from now (0: go at once; negative: the slot came
 * that long ago, before the answer was handled), or a refusal because the next free slot is
 * `retryAfterMs` away, past the request's `maxWaitMs`.
 *
 * @publicApi
 */
export type RateLimitSlot =
  | { readonly granted: true; readonly waitMs: number }
  | { readonly granted: false; readonly retryAfterMs: number };

/**
 * What a limiter learned from the upstream, as it shares it with the other instances:
 * a pause (a `Retry-After`), a slow-down after a refusal (applied by the store only when no
 * other instance slowed down within `cooldownMs`: N instances refused at once slow down
 * once, not N times), a raise while nothing is refused (kept as the higher of the shared
 * rate and the proposal, so N instances probing at once raise it once), or the limit the
 * upstream announced (`RateLimit-Policy`: `rate` calls a second at most, the latest
 * announcement wins). Also, whenever its rate falls, the spacing its calls leave at now
 * (`spaced`): the slots already reserved closer than that are moved apart, once for every
 * instance (see {@link FollowedRateChange}).
 *
 * @publicApi
 */
export type SharedRateChange =
  | { readonly kind: 'paused'; readonly forMs: number }
  | { readonly kind: 'spaced'; readonly intervalMs: number }
  | {
      readonly kind: 'slowed';
      readonly rate: number;
      /** The rate the upstream refused at (the growth curve's anchor). */
      readonly top: number;
      readonly cooldownMs: number;
    }
  | RateLevelChange;

/**
 * A change shared and followed as it is: a raise of the learned rate, or the limit the
 * upstream announced (calls a second).
 *
 * @publicApi
 */
export type RateLevelChange =
  | { readonly kind: 'raised'; readonly rate: number }
  | { readonly kind: 'announced'; readonly rate: number };

/**
 * What another instance (or the store's own answer) changed, for a limiter to follow:
 * a pause whose already reserved slots move `shiftMs` later, the shared learned rate
 * (`sinceMs`: how long ago the slow-down was), the upstream's announced limit, or slots
 * reserved before a rate fell moved apart (`respaced`: each slot after `fromMs` from now, on
 * every instance, is `factor` times as far from that point), so calls not yet gone leave at
 * the lower rate as a lone limiter's waiting calls do.
 *
 * @publicApi
 */
export type FollowedRateChange =
  | { readonly kind: 'paused'; readonly forMs: number; readonly shiftMs: number }
  | { readonly kind: 'respaced'; readonly factor: number; readonly fromMs: number }
  | {
      readonly kind: 'slowed';
      readonly rate: number;
      readonly top: number;
      readonly sinceMs: number;
    }
  | RateLevelChange;

/** What a store that shares rate limits sees of a limiter. @publicApi */
export interface SharedRateLimiterHandle {
  readonly key: string;
  /** Applies a change another instance made to the shared schedule or learned rate. */
  follow(change: FollowedRateChange): void;
}

/**
 * A schedule shared by several instances, as a {@link SharedRateLimiter} sees it
 * (`RedisRateLimitStore`, or an in-memory one in a spec). The limiter takes every slot from the
 * shared schedule of its key (one reservation per call), so N instances together stay within
 * the rate; it shares the pauses and rate changes its adaptive controller decides, and follows
 * the others'.
 *
 * @publicApi
 */
export interface SharedSchedule {
  /**
   * Atomically reserves the next slot of `key`'s schedule, or refuses when it is more than
   * `maxWaitMs` away. `undefined` (at once, or as the promise's value when the store failed
   * or was too slow) means the shared schedule cannot be reached now: the limiter then
   * decides on its own schedule at {@link fallbackRate}. When the store gave up on a
   * reservation that was sent (it was too slow) and it is answered after all, the slot is
   * passed to `late`: the schedule counted it, and a call still waiting for its local turn
   * takes it.
   */
  reserve(
    key: string,
    request: RateLimitSlotRequest,
    late?: (slot: RateLimitSlot) => void,
  ): Promise<RateLimitSlot | undefined> | undefined;
  /** The rate an instance paces at while it cannot reach the shared schedule. */
  fallbackRate(key: string, rate: number): number;
  /** Shares what this instance learned. Must return at once and never throw. */
  share(key: string, change: SharedRateChange): void;
  /**
   * Optional: told about every limiter on this store, so it can pass other instances' changes
   * on. A promise returned settles once the limiter has followed what the instances learned so
   * far (a slow-down, an announced limit): the limiter reserves no slot before, since a slot
   * reserved at its configured rate would be spaced tighter than the shared limit. It must
   * settle (within the store's own timeout) even when the store cannot answer.
   */
  attach?(limiter: SharedRateLimiterHandle): void | Promise<void>;
}
