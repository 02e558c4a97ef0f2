import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { CircuitState } from '@toolshield/core';
import { ToolCircuitBreakers } from '../policies/tool-circuit-breakers.service.js';

/** Breaker states that make the indicator `down`: calls through them fail fast. */
const DOWN_STATES: ReadonlySet<CircuitState> = new Set(['open', 'isolated']);

/** What the indicator reports next to its status. @publicApi */
export interface ToolShieldHealthDetails {
  /** Every breaker used so far, by key (`tool` or `tool:key`), with its state. */
  readonly breakers: Readonly<Record<string, CircuitState>>;
  /** The keys of breakers that fail calls fast now (open or isolated). */
  readonly open: readonly string[];
}

/**
 * A `@nestjs/terminus` health indicator for toolshield's circuit breakers: `down` while any
 * breaker is open or isolated, `degraded` while one is half-open (trial calls are testing
 * the upstream), `up` otherwise; the details list every breaker's state by key. Meant for
 * readiness checks and dashboards: an open breaker says an upstream is failing, which a
 * restart does not cure, so keep it out of liveness probes.
 *
 * Import it from `@toolshield/nest/health` (it needs `@nestjs/terminus`, an optional peer)
 * and provide it next to `TerminusModule`; it reads the breakers of the application's
 * `ToolShieldModule` (register that one with `isGlobal: true`, or import it).
 *
 * @example
 * ```ts
 * @Controller('health')
 * export class HealthController {
 *   constructor(private readonly health: HealthCheckService, private readonly tools: ToolShieldHealthIndicator) {}
 *
 *   @Get('ready')
 *   @HealthCheck()
 *   ready() {
 *     return this.health.check([() => this.tools.isHealthy('tools')]);
 *   }
 * }
 *
 * @Module({ imports: [TerminusModule], controllers: [HealthController], providers: [ToolShieldHealthIndicator] })
 * export class HealthModule {}
 * ```
 * @publicApi
 */
@Injectable()
export class ToolShieldHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly breakers: ToolCircuitBreakers,
  ) {}

  /** The breakers' health under `key` (default `toolshield`). */
  isHealthy<const Key extends string = 'toolshield'>(
    key: Key = 'toolshield' as Key,
  ): HealthIndicatorResult<Key> {
    const session = this.indicators.check(key);
    const states = this.breakers.states();
    const details: ToolShieldHealthDetails = {
      breakers: Object.fromEntries(states.map((breaker) => [breaker.key, breaker.state])),
      open: states
        .filter((breaker) => DOWN_STATES.has(breaker.state))
        .map((breaker) => breaker.key),
    };
    if (details.open.length > 0) return session.down({ ...details });
    if (states.some((breaker) => breaker.state === 'half_open'))
      return session.degraded({ ...details });
    return session.up({ ...details });
  }
}
