import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { RedisBreakerStore } from '../redis-breaker-store.js';

/**
 * A `@nestjs/terminus` health indicator for the shared breaker state: `up` while the
 * instance shares its breakers on Redis, `degraded` while Redis is unreachable or failing and
 * the breakers decide on local state alone (calls keep working: keep it out of liveness
 * probes). Import it from `@toolshield/redis/health` and provide it where
 * `ToolShieldRedisModule`'s `RedisBreakerStore` can be injected.
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
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly store: RedisBreakerStore,
  ) {}

  /** The sharing's health under `key` (default `toolshield-redis`). */
  isHealthy<const Key extends string = 'toolshield-redis'>(
    key: Key = 'toolshield-redis' as Key,
  ): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    const health = this.store.health();
    if (health.status === 'shared') return session.up({ instanceId: this.store.instanceId });
    return session.degraded({ instanceId: this.store.instanceId, lastError: health.lastError });
  }
}
