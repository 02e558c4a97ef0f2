import type { Clock } from '../../clock/clock.js';
import type { RateLimitOptions } from './rate-limit-options.js';
import type { RateLimiter, RateLimitEvent } from './rate-limiter.js';

/**
 * Rate limits shared by several instances of an application (`@toolshield/redis`'s
 * `RedisRateLimitStore`): it makes each key's limiter, a {@link RateLimiter} whose slots come
 * from the key's schedule shared by every instance, and whose adaptive decisions reach them all.
 * Without one, each limiter decides alone, in memory.
 *
 * @publicApi
 */
export interface RateLimitStore {
  /** The limiter of `key` on this store. */
  limiter(
    key: string,
    options: RateLimitOptions,
    clock: Clock,
    observe?: (event: RateLimitEvent) => void,
  ): RateLimiter;
}
