import { Injectable, Optional } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { RedisBreakerStore } from '../redis-breaker-store.js';
import { RedisRateLimitStore } from '../redis-rate-limit-store.js';

/**
 * A `@nestjs/terminus` health indicator for the shared state: `up` while the instance shares
 * its breakers (and, where `ToolShieldRedisModule` provides it, its rate limits) on Redis,
 * `degraded` while Redis is unreachable or failing and they decide on local state alone
 * (calls keep working: keep it out of liveness probes). Import it from
 * `@toolshield/redis/health` and provide it where `ToolShieldRedisModule`'s stores can be
 * injected.
 *
 * @example
 * ```ts
 * @Get('ready')
 * @HealthCheck()
 * ready() {
 *   return this.health.check([() => this.sharedBreakers.isHealthy('breaker-sharing')]);
 * }
 * ```
 * @publicApi
 */
@Injectable()
export class ToolShieldRedisHealthIndicator {
  /** Nest injects the stores. @internal */
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly store: RedisBreakerStore,
    @Optional() private readonly rateLimits?: RedisRateLimitStore,
  ) {}

  /** The sharing's health under `key` (default `toolshield-redis`). */
  isHealthy<const Key extends string = 'toolshield-redis'>(
    key: Key = 'toolshield-redis' as Key,
  ): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    const breakers = this.store.health();
    const health =
      breakers.status === 'shared' ? (this.rateLimits?.health() ?? breakers) : breakers;
    if (health.status === 'shared') return session.up({ instanceId: this.store.instanceId });
    return session.degraded({ instanceId: this.store.instanceId, lastError: health.lastError });
  }
}
