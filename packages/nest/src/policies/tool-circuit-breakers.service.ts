import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  CircuitBreakerRegistry,
  type CircuitBreakerOptions,
  type CircuitState,
  type Clock,
  type ToolCircuitBreaker,
} from '@toolshield/core';
import { Logger } from '@nestjs/common';
import { InjectToolShieldOptions } from '../decorators/inject-toolshield-options.decorator.js';
import { ToolEventBus } from '../execution/tool-event-bus.js';
import type { ToolShieldModuleOptions } from '../interfaces/toolshield-module-options.interface.js';
import { TOOLSHIELD_CLOCK } from '../toolshield.constants.js';

/** One breaker's state, as health checks and dashboards read it. @publicApi */
export interface ToolBreakerState {
  readonly key: string;
  readonly tool: string;
  readonly state: CircuitState;
}

/**
 * The application's circuit breakers: one per tool, or per tool and key. Inject it to read
 * their states, or to open, close or isolate one by hand (an incident, a maintenance window).
 * State changes appear on `ToolExecutor.events$` and are saved to the module's
 * `breakerStore`. Every breaker stops when the application closes.
 *
 * @publicApi
 */
@Injectable()
export class ToolCircuitBreakers implements OnApplicationShutdown {
  private readonly logger = new Logger('ToolShield');
  private readonly registry: CircuitBreakerRegistry;

  constructor(
    events: ToolEventBus,
    @Inject(TOOLSHIELD_CLOCK) clock: Clock,
    @InjectToolShieldOptions() options: ToolShieldModuleOptions,
  ) {
    this.registry = new CircuitBreakerRegistry({
      clock,
      store: options.breakerStore,
      onStateChange: (event) => events.emit(event),
      onStoreError: (error, key) =>
        this.logger.warn(`Could not save the state of breaker "${key}": ${String(error)}`),
    });
  }

  /** The breaker for `key`, created on first use with `options`. @internal */
  get(key: string, tool: string, options: CircuitBreakerOptions): ToolCircuitBreaker {
    return this.registry.get(key, { ...options, tool });
  }

  /** The breaker for `key` (a tool name, or `tool:key` for keyed breakers), if it was used. */
  find(key: string): ToolCircuitBreaker | undefined {
    return this.registry.find(key);
  }

  /** Every breaker used so far, with its state. */
  states(): ToolBreakerState[] {
    return this.registry.all().map((breaker) => ({ key: breaker.key, tool: breaker.tool, state: breaker.state }));
  }

  onApplicationShutdown(): void {
    this.registry.dispose();
  }
}
