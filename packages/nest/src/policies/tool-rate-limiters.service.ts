import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CancelledError, type Clock, type RateLimitOptions } from '@toolshield/core';
import { type RateLimitEvent } from '@toolshield/core/events';
import { RateLimiter, type RateLimiterSnapshot } from '@toolshield/core/internal';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { ToolEventBus } from '../execution/tool-event-bus.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/** One key's limiter. @internal */
export interface ToolRateLimit {
  readonly limiter: RateLimiter;
}

/**
 * The application's client-side rate limiters, one per key (a tool name, or the upstream
 * that several tools name). A limiter is created on first use from the module's
 * `rateLimits[key]` and the settings of the first tool that uses it; with the module's
 * `rateLimitStore`, every instance of the application shares each key's budget. Rate changes appear on
 * `ToolExecutor.events$` as `rate_limit.changed`. Calls still waiting when the application
 * closes end `cancelled`.
 *
 * @example
 * ```ts
 * limiters.snapshots(); // [{ key: 'search-api', rate: 47.5, queued: 3, nextAtMs: ... }]
 * ```
 * @publicApi
 */
@Injectable()
export class ToolRateLimiters implements OnApplicationShutdown {
  private readonly limits = new Map<string, ToolRateLimit>();

  /** Nest injects the dependencies. @internal */
  constructor(
    private readonly events: ToolEventBus,
    @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    @InjectToolShieldOptions() private readonly options: ToolShieldModuleOptions,
  ) {}

  /** The limiter for `key`, created on first use. @internal */
  acquire(key: string, toolOptions: RateLimitOptions): ToolRateLimit {
    return this.limits.get(key) ?? this.create(key, toolOptions);
  }

  /** Every limiter used so far, as it stands. */
  snapshots(): RateLimiterSnapshot[] {
    return [...this.limits.values()].map(({ limiter }) => limiter.snapshot());
  }

  onApplicationShutdown(): void {
    const reason = new CancelledError('The application is shutting down');
    for (const { limiter } of this.limits.values()) limiter.close(reason);
    this.limits.clear();
  }

  private create(key: string, toolOptions: RateLimitOptions): ToolRateLimit {
    const options = { ...this.options.rateLimits?.[key], ...toolOptions };
    const observe = (event: RateLimitEvent) => {
      if (event.kind !== 'rate_changed' && event.kind !== 'paused') return;
      this.events.emit({
        type: 'rate_limit.changed',
        at: this.clock.now(),
        key,
        rate: limiter.rate,
        reason: event.kind === 'paused' ? `paused until ${event.untilMs}` : event.reason,
      });
    };
    const store = this.options.rateLimitStore;
    const limiter =
      store?.limiter(key, options, this.clock, observe) ??
      new RateLimiter(key, options, this.clock, observe);
    const limit = { limiter };
    this.limits.set(key, limit);
    return limit;
  }
}
