import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import type { CircuitState } from '@toolshield/core/events';
import { ToolCircuitBreakers } from '../policies/tool-circuit-breakers.service.js';
import { ToolRegistry } from '../registry/tool.registry.js';
import { assertReadinessOptions, type ToolShieldReadinessOptions } from './readiness-options.js';

/** Breaker states in which calls through the breaker fail fast. */
const FAILING_FAST: ReadonlySet<CircuitState> = new Set(['open', 'isolated']);

const NO_OPTIONS: ToolShieldReadinessOptions = {};

/** What the readiness check reports next to its status. @publicApi */
export interface ToolShieldHealthDetails {
  /** Every breaker used so far, by key (`tool` or `tool:key`), with its state. */
  readonly breakers: Readonly<Record<string, CircuitState>>;
  /** The keys of breakers that fail calls fast now (open or isolated). */
  readonly open: readonly string[];
  /** The keys of half-open breakers (trial calls are testing the upstream). */
  readonly half_open: readonly string[];
  /** Some breaker is open, isolated or half-open: some tools fail fast or are on trial. */
  readonly degraded: boolean;
  /** The open or isolated breakers of critical tools: readiness is `down` while any is listed. */
  readonly critical_open: readonly string[];
}

/**
 * `@nestjs/terminus` health checks for an application that serves toolshield tools.
 *
 * - {@link isReady} (readiness): `up` while the instance can serve, also while some breakers are
 *   open: an open breaker is the system handling a failing upstream, and taking every replica
 *   out of the load balancer for it would take the healthy tools down with it. The details list
 *   every breaker, the open and half-open ones and a `degraded` flag. It is `down` only while a
 *   breaker of a tool declared critical (`@Tool({ critical: true })`, or named in `critical`)
 *   is open or isolated.
 * - {@link isAlive} (liveness): `up` whatever the breakers say; a failing upstream is never
 *   cured by restarting this process.
 *
 * Import it from `@toolshield/nest/health` (it needs `@nestjs/terminus`, an optional peer) and
 * provide it next to `TerminusModule`; it reads the breakers of the application's
 * `ToolShieldModule` (register that one with `isGlobal: true`, or import it).
 *
 * @example
 * ```ts
 * @Controller('health')
 * export class HealthController {
 *   constructor(private readonly health: HealthCheckService, private readonly tools: ToolShieldHealthIndicator) {}
 *
 *   @Get('live')
 *   @HealthCheck()
 *   live() {
 *     return this.health.check([() => this.tools.isAlive('tools')]);
 *   }
 *
 *   @Get('ready')
 *   @HealthCheck()
 *   ready() {
 *     return this.health.check([() => this.tools.isReady('tools', { critical: ['payments'] })]);
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
  /** Nest injects the dependencies. @internal */
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly breakers: ToolCircuitBreakers,
    private readonly tools: ToolRegistry,
  ) {}

  /**
   * Readiness under `key` (default `toolshield`): `down` only while a critical tool's breaker
   * fails calls fast, `up` otherwise, with the breakers as details.
   *
   * @throws InvalidOptionsError when `critical` names neither a tool nor a shared breaker.
   */
  isReady<const Key extends string = 'toolshield'>(
    key: Key = 'toolshield' as Key,
    options: ToolShieldReadinessOptions = NO_OPTIONS,
  ): HealthIndicatorResult<Key> {
    const critical = this.criticalBreakers(options);
    const session = this.indicators.check(key);
    const states = this.breakers.states();
    const keysIn = (wanted: (state: CircuitState) => boolean) =>
      states.filter((breaker) => wanted(breaker.state)).map((breaker) => breaker.key);
    const open = keysIn((state) => FAILING_FAST.has(state));
    const halfOpen = keysIn((state) => state === 'half_open');
    const details: ToolShieldHealthDetails = {
      breakers: Object.fromEntries(states.map((breaker) => [breaker.key, breaker.state])),
      open,
      half_open: halfOpen,
      degraded: open.length + halfOpen.length > 0,
      critical_open: states
        .filter((breaker) => FAILING_FAST.has(breaker.state) && critical.has(breaker.tool))
        .map((breaker) => breaker.key),
    };
    return details.critical_open.length > 0
      ? session.down({ ...details })
      : session.up({ ...details });
  }

  /** The readiness check of {@link isReady}, under its former name. */
  isHealthy<const Key extends string = 'toolshield'>(
    key: Key = 'toolshield' as Key,
    options: ToolShieldReadinessOptions = NO_OPTIONS,
  ): HealthIndicatorResult<Key> {
    return this.isReady(key, options);
  }

  /**
   * Liveness under `key` (default `toolshield`): `up` while the process answers, whatever
   * state the breakers are in.
   */
  isAlive<const Key extends string = 'toolshield'>(
    key: Key = 'toolshield' as Key,
  ): HealthIndicatorResult<Key> {
    return this.indicators.check(key).up();
  }

  /**
   * The breaker names (a breaker's `tool`) that make readiness fail: those of the tools
   * declared critical, of the tools named in `critical`, and the shared breakers it names.
   */
  private criticalBreakers(options: ToolShieldReadinessOptions): ReadonlySet<string> {
    const breakerOf = (tool: string) => this.tools.get(tool)?.policies.breaker?.name ?? tool;
    const shared = new Set(
      this.tools.names().flatMap((tool) => this.tools.get(tool)?.policies.breaker?.name ?? []),
    );
    assertReadinessOptions(
      options,
      (name) => this.tools.get(name) !== undefined || shared.has(name),
    );
    const declared = this.tools.names().filter((tool) => this.tools.get(tool)?.options.critical);
    return new Set([...declared, ...(options.critical ?? [])].map(breakerOf));
  }
}
